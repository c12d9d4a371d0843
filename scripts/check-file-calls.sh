#!/usr/bin/env bash
# One system-call funnel: no shipped target but LinuxKit (and the C modules) may call the file
# system itself (copies and mappings of files included), nor read the clocks (clock_gettime) or
# drive a terminal (isatty, ioctl, tcgetattr, tcsetattr). Checked twice: in the sources, for
# Glibc-qualified calls and Foundation's FileManager; in the built objects (argument: the build
# directory, default .build/debug), for any reference to a file-system function, however it was
# spelled in Swift.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-.build/debug}

calls='open|open64|openat|openat64|creat|read|readv|write|writev|pread|pread64|pwrite|pwrite64|close|fsync|fdatasync|sync_file_range|rename|renameat|renameat2|link|linkat|symlink|symlinkat|readlink|readlinkat|unlink|unlinkat|rmdir|mkdir|mkdirat|mkstemp|mkstemp64|mkostemp|mkdtemp|stat|stat64|lstat|lstat64|fstat|fstat64|fstatat|fstatat64|statx|truncate|ftruncate|ftruncate64|flock|lockf|fcntl|opendir|fdopendir|readdir|readdir64|closedir|scandir|realpath|access|faccessat|chmod|fchmod|fchmodat|chown|fchown|dup|dup2|dup3|fopen|fdopen|fread|fwrite|fclose|copy_file_range|sendfile|sendfile64|statvfs|statvfs64|fstatvfs|fstatvfs64|mmap|mmap64|munmap|clock_gettime|ioctl|isatty|tcgetattr|tcsetattr'
targets=$(ls Sources | grep -vx -e LinuxKit -e CLinux -e CDBus -e CIntl)
status=0

for target in $targets; do
    if grep -rnE "Glibc\.($calls)\(|FileManager" "Sources/$target"; then status=1; fi
    # The objects of the target's current sources (an incremental build keeps those of deleted files).
    list="$build/$target.build/sources"
    [ -f "$list" ] || { echo "check-file-calls: no objects for $target in $build (build first)"; exit 2; }
    objects=()
    while read -r source; do objects+=("$build/$target.build/$(basename "$source").o"); done < "$list"
    found=$(nm -u "${objects[@]}" | awk '{print $2}' | sort -u | swift demangle \
        | grep -E "^($calls)\$|^Glibc\.($calls)\(" || true)
    if [ -n "$found" ]; then
        echo "$target makes system calls itself:" $found
        status=1
    fi
done
[ $status = 0 ] && echo "no file-system, clock or terminal call outside LinuxKit ($(echo $targets | wc -w) targets)"
exit $status
