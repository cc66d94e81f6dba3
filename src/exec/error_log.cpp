// ErrorLog: a mutex-guarded map from thread to message.
#include "exec/error_log.hpp"

namespace topocoll::exec {

void ErrorLog::record(std::string message) {
  const std::lock_guard lock(mutex_);
  by_thread_[std::this_thread::get_id()] = std::move(message);
}

const char* ErrorLog::last() const {
  const std::lock_guard lock(mutex_);
  const auto found = by_thread_.find(std::this_thread::get_id());
  return found == by_thread_.end() ? "" : found->second.c_str();
}

}  // namespace topocoll::exec
