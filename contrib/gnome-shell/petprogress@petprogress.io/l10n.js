// The extension's words in the user's language: gettext with the extension's own domain, the one
// metadata.json declares ("gettext-domain"), which the Shell binds to the extension's locale/
// directory when it loads the extension. No Shell imports: present.js and timeinput.js use these,
// and the tests bind the domain themselves. extension.js uses the Shell's own `gettext` (the same
// domain).

import Gettext from 'gettext';

/** metadata.json's "gettext-domain" (a test compares the two). */
export const DOMAIN = 'petprogress-shell';

/** `text` translated. */
export function _(text) {
    return Gettext.dgettext(DOMAIN, text);
}

/** `one` or `many`, translated, as `n` asks. */
export function ngettext(one, many, n) {
    return Gettext.dngettext(DOMAIN, one, many, n);
}

/** `text` translated within `context` (a word that means two things in English). */
export function pgettext(context, text) {
    return Gettext.dpgettext(DOMAIN, context, text);
}

/**
 * Fills C's placeholders, which the catalogues keep (msgfmt --check holds a translation to them):
 * `%s` and `%d` in order, `%1$s` by position, `%%` a percent sign. JavaScript's template literals
 * cannot be translated: the sentence would reach gettext already filled in.
 */
export function fill(template, ...values) {
    let next = 0;
    return template.replace(/%(?:(\d+)\$)?([sd%])/g, (match, position, kind) => {
        if (kind === '%')
            return '%';
        const index = position ? Number(position) - 1 : next++;
        return index < values.length ? String(values[index]) : match;
    });
}
