// The "already said" attribute and the descriptions of communicators. Only PMPI_* calls.
#include "interpose/communicator_notes.hpp"

#include <cstdint>
#include <cstdio>

namespace topocoll::interpose {

namespace {

// Created at the first note (after MPI_Init, since notes come from MPI calls) and never
// freed: the MPI library releases keyvals at MPI_Finalize.
int notes_keyval() {
  static const int keyval = [] {
    int created = MPI_KEYVAL_INVALID;
    if (PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &created, nullptr) != MPI_SUCCESS) {
      created = MPI_KEYVAL_INVALID;
    }
    return created;
  }();
  return keyval;
}

// Marks `note` as said on `comm`; false when it already was. Without a keyval (which MPI
// should never refuse) every note is said.
bool mark_said(MPI_Comm comm, Note note) {
  const int keyval = notes_keyval();
  if (keyval == MPI_KEYVAL_INVALID) return true;
  void* value = nullptr;
  int found = 0;
  if (PMPI_Comm_get_attr(comm, keyval, &value, &found) != MPI_SUCCESS) return true;
  const auto said = found ? reinterpret_cast<std::uintptr_t>(value) : std::uintptr_t{0};
  const auto bit = static_cast<std::uintptr_t>(note);
  if (said & bit) return false;
  PMPI_Comm_set_attr(comm, keyval, reinterpret_cast<void*>(said | bit));
  return true;
}

}  // namespace

void say_once(MPI_Comm comm, Note note, Speakers speakers, const std::string& text) {
  if (comm == MPI_COMM_NULL) return;
  int rank = 0;
  if (PMPI_Comm_rank(comm, &rank) != MPI_SUCCESS) return;
  if (speakers == Speakers::rank_zero && rank != 0) return;
  if (!mark_said(comm, note)) return;
  std::fprintf(stderr, "topocoll: %s\n", text.c_str());
  std::fflush(stderr);
}

std::string describe_communicator(MPI_Comm comm) {
  int size = 0;
  PMPI_Comm_size(comm, &size);
  char name[MPI_MAX_OBJECT_NAME] = {};
  int length = 0;
  PMPI_Comm_get_name(comm, name, &length);
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter) {
    int remote_size = 0;
    PMPI_Comm_remote_size(comm, &remote_size);
    return std::string(length > 0 ? name : "an intercommunicator") + " (" + std::to_string(size) + " + " +
           std::to_string(remote_size) + " ranks)";
  }
  if (length > 0) return std::string(name) + " (" + std::to_string(size) + " ranks)";
  return "a communicator of " + std::to_string(size) + " ranks";
}

}  // namespace topocoll::interpose
