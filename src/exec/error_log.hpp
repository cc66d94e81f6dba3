// The last error message of each thread, kept in MPI_COMM_SELF's CommState (one per
// process, and one per simulated rank under SMPI, where threads-as-ranks share globals).
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace topocoll::exec {

class ErrorLog {
 public:
  // Stores `message` as this thread's last error.
  void record(std::string message);
  // This thread's last error, "" when none. Valid until this thread's next record().
  const char* last() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::thread::id, std::string> by_thread_;
};

}  // namespace topocoll::exec
