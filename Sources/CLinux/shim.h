// CLinux: the Linux headers Swift's Glibc module map leaves out. Only LinuxKit imports this module.
#ifndef CLINUX_SHIM_H
#define CLINUX_SHIM_H

// LinuxKit's TimerFD and SignalFD: the loop's timer and signal sources.
#include <sys/timerfd.h>
#include <sys/signalfd.h>

// mallopt (ProcessMemory): the daemon returns big message buffers to the system when freed.
#include <malloc.h>

#endif
