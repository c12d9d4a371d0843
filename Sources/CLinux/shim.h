// CLinux: the Linux headers Swift's Glibc module map leaves out. Only LinuxKit imports this module.
#ifndef CLINUX_SHIM_H
#define CLINUX_SHIM_H

// LinuxKit's TimerFD and SignalFD: the loop's timer and signal sources.
#include <sys/timerfd.h>
#include <sys/signalfd.h>
// LinuxKit's OffLoopWork: a worker thread's end wakes the loop through an eventfd.
#include <sys/eventfd.h>

// mallopt (ProcessMemory): the daemon returns big message buffers to the system when freed.
#include <malloc.h>

// mkostemp (AtomicReplace): a GNU extension Glibc's module leaves out, so declared here as glibc
// defines it; its flags give the temporary file close-on-exec as it is created, so that no child
// spawned meanwhile by another thread inherits it (and keeps its blocks allocated).
extern int mkostemp(char *template_, int flags);

// MappedFile's private copy (MappedFile+PrivateCopy): an unnamed file in a directory, filled in the
// kernel (no buffer of ours), and the room left on its file system. O_TMPFILE and copy_file_range are
// GNU extensions Glibc's module leaves out: the flag is spelled as glibc spells it (its two parts are
// defined unconditionally), the call declared as glibc declares it.
#include <sys/sendfile.h>
#include <sys/statvfs.h>
#include <fcntl.h>
static const int CLINUX_O_TMPFILE = __O_TMPFILE | __O_DIRECTORY;
extern ssize_t copy_file_range(int infd, __off64_t *pinoff, int outfd, __off64_t *poutoff, size_t length,
                               unsigned int flags);

#endif
