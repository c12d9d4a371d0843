import Glibc

/// Opens /dev/null on each of fds 0–2 that is closed. Started with them closed, the lock, the
/// state file or the bus socket would take those numbers and a log line (written to fd 2) would
/// land in it: in the socket it corrupts the stream and the bus drops the daemon.
func openMissingStandardDescriptors() {
    for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
        // open(2) returns the lowest free number: this one, as the lower ones are open by now.
        let opened = open("/dev/null", O_RDWR)
        if opened > 2 { close(opened) }
    }
}
