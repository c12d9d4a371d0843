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

#endif
