// A lint of the extension's JavaScript under gjs: usage `gjs -m lint.js EXTENSION-DIR FILE...`.
//
// Every file is parsed as an ES module with SpiderMonkey's own parser (`Reflect.parse` with
// `target: 'module'`, in gjs since long before 1.74). That is a syntax check which runs nothing, so
// it works for extension.js too, whose `resource:///org/gnome/shell/...` imports exist only inside
// the Shell; it reports the early errors a real load would (redeclarations, exports of unknown
// names, `await` outside modules). On the parse trees it then checks the rules the design rests on:
// - the Shell-free modules import only `gi://Gio`, `gi://GLib`, gjs's `gettext` and each other;
// - every name imported from a sibling module is exported by it;
// - extension.js default-exports a class extending the Shell's `Extension`, and no file uses the
//   legacy `imports.` object, which Shell 45+ modules cannot see;
// - metadata.json names the directory's uuid and Shell versions of the module era (45 and later).

import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import System from 'system';

const SHELL_FREE_IMPORTS = new Set(['gi://Gio', 'gi://GLib', 'gettext']);
const EXTENSION_MODULE = 'resource:///org/gnome/shell/extensions/extension.js';
const decoder = new TextDecoder();

function readText(path) {
    const [, bytes] = GLib.file_get_contents(path);
    return decoder.decode(bytes);
}

/** The module source of an import or export node (the tree's shape differs between SpiderMonkey
 * versions). */
function sourceOf(node) {
    return node.moduleRequest?.source?.value ?? node.source?.value ?? null;
}

/** Calls `visit` on every node of a parse tree. */
function walk(node, visit) {
    if (Array.isArray(node)) {
        node.forEach(child => walk(child, visit));
    } else if (node && typeof node === 'object') {
        if (typeof node.type === 'string')
            visit(node);
        for (const [key, value] of Object.entries(node)) {
            if (key !== 'loc')
                walk(value, visit);
        }
    }
}

/** What a module exports, by name (`default` included). */
function exportedNames(tree) {
    const names = new Set();
    for (const node of tree.body.filter(n => n.type === 'ExportDeclaration')) {
        if (node.isDefault)
            names.add('default');
        for (const specifier of node.specifiers ?? [])
            names.add(specifier.name.name);
        const declaration = node.declaration;
        if (!node.isDefault && declaration?.id)
            names.add(declaration.id.name);
        for (const declarator of declaration?.declarations ?? [])
            names.add(declarator.id.name);
    }
    return names;
}

/** The file's imports as `{source, names}`, `names` null for a namespace import. */
function importsOf(tree) {
    return tree.body.filter(n => n.type === 'ImportDeclaration').map(node => ({
        source: sourceOf(node),
        names: node.specifiers.some(s => s.type === 'ImportNamespaceSpecifier')
            ? null : node.specifiers.map(s => s.id.name),
    }));
}

function parse(path, problems) {
    try {
        return Reflect.parse(readText(path), {target: 'module', source: path});
    } catch (error) {
        problems.push(`${path}:${error.lineNumber ?? '?'}: ${error.name}: ${error.message}`);
        return null;
    }
}

function checkLegacyImports(path, tree, problems) {
    walk(tree, node => {
        if (node.type === 'MemberExpression' && node.object?.type === 'Identifier' &&
            node.object.name === 'imports')
            problems.push(`${path}:${node.loc?.start?.line}: uses the legacy 'imports' object`);
    });
}

function checkExtensionModule(dir, trees, problems) {
    const tree = trees.get(`${dir}/extension.js`);
    if (!tree) {
        problems.push(`${dir}/extension.js: missing`);
        return;
    }
    const fromShell = importsOf(tree).find(i => i.source === EXTENSION_MODULE);
    const main = tree.body.find(n => n.type === 'ExportDeclaration' && n.isDefault);
    if (!fromShell?.names?.includes('Extension') || main?.declaration?.superClass?.name !== 'Extension')
        problems.push(`${dir}/extension.js: must default-export a class extending Extension from ${EXTENSION_MODULE}`);
}

function checkMetadata(dir, problems) {
    let metadata;
    try {
        metadata = JSON.parse(readText(`${dir}/metadata.json`));
    } catch (error) {
        problems.push(`${dir}/metadata.json: ${error.message}`);
        return;
    }
    if (metadata.uuid !== GLib.path_get_basename(dir))
        problems.push(`${dir}/metadata.json: uuid ${metadata.uuid} is not the directory's name`);
    const versions = metadata['shell-version'];
    if (!Array.isArray(versions) || versions.length === 0 ||
        !versions.every(v => typeof v === 'string' && Number(v.split('.')[0]) >= 45))
        problems.push(`${dir}/metadata.json: shell-version must list Shell versions 45 or later`);
    for (const key of ['name', 'description'])
        if (typeof metadata[key] !== 'string' || metadata[key] === '')
            problems.push(`${dir}/metadata.json: ${key} missing`);
}

/** Checks imports between the extension's own modules and the Shell-free rule. */
function checkModuleImports(dir, trees, problems) {
    for (const [path, tree] of trees) {
        const inExtension = GLib.path_get_dirname(path) === dir;
        for (const {source, names} of importsOf(tree)) {
            if (source.startsWith('./') || source.startsWith('../')) {
                const target = GLib.canonicalize_filename(source, GLib.path_get_dirname(path));
                const targetTree = trees.get(target);
                if (!targetTree) {
                    problems.push(`${path}: imports ${source}, which is not among the checked files`);
                    continue;
                }
                const exported = exportedNames(targetTree);
                for (const name of names ?? [])
                    if (!exported.has(name))
                        problems.push(`${path}: imports ${name} from ${source}, which does not export it`);
            } else if (inExtension && !path.endsWith('/extension.js') && !SHELL_FREE_IMPORTS.has(source)) {
                problems.push(`${path}: imports ${source}; only extension.js may use the Shell or other libraries`);
            }
        }
    }
}

const [dir, ...files] = ARGV.map(p => Gio.File.new_for_path(p).get_path());
const problems = [];
const trees = new Map();
for (const path of files) {
    const tree = parse(path, problems);
    if (tree) {
        trees.set(path, tree);
        checkLegacyImports(path, tree, problems);
    }
}
checkModuleImports(dir, trees, problems);
checkExtensionModule(dir, trees, problems);
checkMetadata(dir, problems);

for (const problem of problems)
    printerr(`lint: ${problem}`);
print(`lint: ${files.length} files parsed as modules, ${problems.length} problems`);
if (problems.length > 0)
    System.exit(1);
