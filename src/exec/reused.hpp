// An object that one blocking call on this thread borrows for its length and gives back at its
// end, so that the next call finds the memory of its vectors already allocated: at 16 ranks a
// call's layouts and request window were a dozen mallocs and frees, a quarter of topocoll's own
// instructions per call (docs/results.md). A call made while the thread's object is lent (a
// nested call, from an error handler) gets one of its own. Only for objects that live inside one
// blocking call: nothing outlives the thread's spare.
#pragma once

#include <memory>
#include <utility>

namespace topocoll::exec {

// T: default-constructible, with clear_for_reuse() (release what the call held, keep the memory).
template <class T>
class Reused {
 public:
  Reused() : object_(std::move(spare())) {
    if (!object_) object_ = std::make_unique<T>();
  }
  ~Reused() {
    object_->clear_for_reuse();
    if (!spare()) spare() = std::move(object_);
  }
  Reused(const Reused&) = delete;
  Reused& operator=(const Reused&) = delete;

  T& operator*() { return *object_; }
  T* operator->() { return object_.get(); }

 private:
  static std::unique_ptr<T>& spare() {
    thread_local std::unique_ptr<T> object;
    return object;
  }
  std::unique_ptr<T> object_;
};

}  // namespace topocoll::exec
