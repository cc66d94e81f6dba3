// SMPI builds only. smpicxx links a program as a shared object that SimGrid's launcher
// (smpimain, started by smpirun) loads; executed by hand it had no entry point and crashed.
// This gives it one (an ELF interpreter and an entry, as glibc's libc.so.6 has), used only
// when the file is executed directly: it says how to run the tool and exits, with status 0
// for -h or --help and 2 otherwise. Under smpirun it is never called.
#include <fcntl.h>
#include <unistd.h>

#include <cstring>

extern "C" {

// The dynamic loader the kernel starts for this file (x86-64 and AArch64 Debian).
#if defined(__x86_64__)
__attribute__((section(".interp"), used)) const char topocoll_smpi_interpreter[] = "/lib64/ld-linux-x86-64.so.2";
#elif defined(__aarch64__)
__attribute__((section(".interp"), used)) const char topocoll_smpi_interpreter[] = "/lib/ld-linux-aarch64.so.1";
#endif

namespace {

void say(int fd, const char* text) {
  for (std::size_t left = std::strlen(text); left > 0;) {
    const ssize_t written = write(fd, text, left);
    if (written <= 0) return;
    text += written;
    left -= static_cast<std::size_t>(written);
  }
}

// Whether -h or --help is among the arguments (from /proc/self/cmdline: the entry point gets
// no argc and argv of its own). Only the system calls are used: the C library's start-up code
// has not run.
bool help_asked() {
  static char arguments[65536];
  const int fd = open("/proc/self/cmdline", O_RDONLY);
  if (fd < 0) return false;
  const ssize_t length = read(fd, arguments, sizeof arguments - 1);
  close(fd);
  if (length <= 0) return false;
  arguments[length] = '\0';
  for (const char* at = arguments + std::strlen(arguments) + 1; at < arguments + length; at += std::strlen(at) + 1) {
    if (std::strcmp(at, "-h") == 0 || std::strcmp(at, "--help") == 0) return true;
  }
  return false;
}

}  // namespace

__attribute__((force_align_arg_pointer, noreturn, used)) void topocoll_smpi_entry() {
  const bool help = help_asked();
  say(help ? STDOUT_FILENO : STDERR_FILENO,
      "This is an SMPI build of a topocoll tool: it runs only under SimGrid's smpirun, as in\n"
        "  scripts/simulate.sh PLATFORM NP -- OPTIONS\n"
        "  smpirun -np NP -platform P.xml -hostfile H TOOL OPTIONS\n"
        "Its options are those of the real-MPI build of the same tool (build/mpi/tools/TOOL -h).\n");
  _exit(help ? 0 : 2);
}

}  // extern "C"
