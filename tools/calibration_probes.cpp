// The MPI measurements of topocoll-calibrate (see calibration_probes.hpp).
#include "calibration_probes.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include "bench_buffers.hpp"
#include "select/validation_check.hpp"
#include "topocoll/topocoll.hpp"

namespace topocoll::calibrate {

namespace {

constexpr int kTag = 4242;

void check(int code, const char* what) {
  if (code != MPI_SUCCESS) throw std::runtime_error(std::string(what) + " failed");
}

// The same value everywhere: `root`'s.
double shared_from(MPI_Comm comm, int root, double value) {
  check(MPI_Bcast(&value, 1, MPI_DOUBLE, root, comm), "MPI_Bcast");
  return value;
}

// The ranks that send or receive one of `flows`, as a communicator of their own (MPI_COMM_NULL
// elsewhere), whose barriers time the pattern: a barrier of the whole machine would wait for
// ranks far away that take no part, and its latency would hide a short pattern (across a 2 ms
// WAN it hid 8 x 768 KiB through a 10 Gbit/s node link and made the link 2.34 GB/s).
MPI_Comm participants_of(MPI_Comm comm, const std::vector<Flow>& flows) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const bool takes_part =
      std::any_of(flows.begin(), flows.end(), [&](const Flow& f) { return f.first == rank || f.second == rank; });
  MPI_Comm participants = MPI_COMM_NULL;
  check(MPI_Comm_split(comm, takes_part ? 0 : MPI_UNDEFINED, rank, &participants), "MPI_Comm_split");
  return participants;
}

// One timed run of `flows` with `messages` of `bytes` each, between two barriers of the
// participants; the time on the first participant (us).
double time_flows_once(MPI_Comm comm, int rank, MPI_Comm participants, const std::vector<Flow>& flows,
                       std::size_t bytes, int messages, bench::MessageBuffer& send, bench::MessageBuffer& recv) {
  std::vector<MPI_Request> requests;
  check(MPI_Barrier(participants), "MPI_Barrier");
  const double start = MPI_Wtime();
  std::size_t slot = 0;
  for (const Flow& f : flows) {
    if (f.second != rank) continue;
    for (int i = 0; i < messages; ++i) {
      requests.emplace_back();
      check(MPI_Irecv(recv.data() + slot++ * bytes, static_cast<int>(bytes), MPI_BYTE, f.first, kTag, comm,
                      &requests.back()),
            "MPI_Irecv");
    }
  }
  for (const Flow& f : flows) {
    if (f.first != rank) continue;
    for (int i = 0; i < messages; ++i) {
      requests.emplace_back();
      check(MPI_Isend(send.data(), static_cast<int>(bytes), MPI_BYTE, f.second, kTag, comm, &requests.back()),
            "MPI_Isend");
    }
  }
  check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  check(MPI_Barrier(participants), "MPI_Barrier");
  return (MPI_Wtime() - start) * 1e6;
}

}  // namespace

double measure_flows_us(MPI_Comm comm, const std::vector<Flow>& flows, std::size_t bytes, int messages,
                        const ProbeSettings& settings) {
  if (flows.empty()) return 0.0;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const std::size_t incoming = static_cast<std::size_t>(
      std::count_if(flows.begin(), flows.end(), [&](const Flow& f) { return f.second == rank; }));
  bench::MessageBuffer send(bytes, settings.smpi_shared_buffers);
  bench::MessageBuffer recv(std::max<std::size_t>(1, incoming) * static_cast<std::size_t>(messages) * bytes,
                            settings.smpi_shared_buffers);
  MPI_Comm participants = participants_of(comm, flows);
  std::vector<double> times;
  if (participants != MPI_COMM_NULL) {
    time_flows_once(comm, rank, participants, flows, bytes, messages, send, recv);  // warm-up
    for (int i = 0; i < settings.repetitions; ++i) {
      times.push_back(time_flows_once(comm, rank, participants, flows, bytes, messages, send, recv));
    }
    MPI_Comm_free(&participants);
  }
  // The lowest participant (rank 0 of the participants' communicator) timed it.
  int first = rank;
  for (const Flow& f : flows) first = std::min({first, f.first, f.second});
  int lowest = 0;
  check(MPI_Allreduce(&first, &lowest, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  return shared_from(comm, lowest, times.empty() ? 0.0 : median(times));
}

double measure_send_overhead_us(MPI_Comm comm, int a, int b, const ProbeSettings& settings) {
  constexpr int kMessages = 32;
  constexpr int kBytes = 8;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::vector<double> per_message;
  char buffer[kMessages * kBytes] = {};
  for (int i = 0; i <= settings.repetitions; ++i) {  // the first is a warm-up
    check(MPI_Barrier(comm), "MPI_Barrier");
    std::vector<MPI_Request> requests(kMessages);
    if (rank == b) {
      for (int m = 0; m < kMessages; ++m) {
        check(MPI_Irecv(buffer + m * kBytes, kBytes, MPI_BYTE, a, kTag, comm, &requests[m]), "MPI_Irecv");
      }
      check(MPI_Send(nullptr, 0, MPI_BYTE, a, kTag + 1, comm), "MPI_Send");  // receives are posted
      check(MPI_Waitall(kMessages, requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    } else if (rank == a) {
      check(MPI_Recv(nullptr, 0, MPI_BYTE, b, kTag + 1, comm, MPI_STATUS_IGNORE), "MPI_Recv");
      const double start = MPI_Wtime();
      for (int m = 0; m < kMessages; ++m) {
        check(MPI_Isend(buffer + m * kBytes, kBytes, MPI_BYTE, b, kTag, comm, &requests[m]), "MPI_Isend");
      }
      const double posted = MPI_Wtime();
      check(MPI_Waitall(kMessages, requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
      if (i > 0) per_message.push_back((posted - start) * 1e6 / kMessages);
    }
  }
  return shared_from(comm, a, rank == a ? median(per_message) : 0.0);
}

namespace {

// `receiver` posts the receives of `each` empty messages from every sender, waits `settle_us`
// (simulated time under SMPI) so that all of them have arrived, and returns how long it then
// takes to complete them; the senders return 0.
double time_completing_us(MPI_Comm comm, int rank, int receiver, const std::vector<int>& senders, int each,
                          double settle_us) {
  const bool receives = rank == receiver;
  const bool sends = std::find(senders.begin(), senders.end(), rank) != senders.end();
  const std::size_t messages = receives ? senders.size() * static_cast<std::size_t>(each)
                                        : (sends ? static_cast<std::size_t>(each) : 0);
  char buffer[1] = {};
  std::vector<MPI_Request> requests(messages);
  check(MPI_Barrier(comm), "MPI_Barrier");
  for (std::size_t m = 0; m < messages; ++m) {
    if (receives) {
      const int from = senders[m % senders.size()];
      check(MPI_Irecv(buffer, 0, MPI_BYTE, from, kTag, comm, &requests[m]), "MPI_Irecv");
    } else {
      check(MPI_Isend(buffer, 0, MPI_BYTE, receiver, kTag, comm, &requests[m]), "MPI_Isend");
    }
  }
  if (receives) usleep(static_cast<useconds_t>(settle_us));
  const double start = MPI_Wtime();
  check(MPI_Waitall(static_cast<int>(messages), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  return receives ? (MPI_Wtime() - start) * 1e6 : 0.0;
}

}  // namespace

double measure_recv_overhead_us(MPI_Comm comm, int receiver, double settle_us, const ProbeSettings& settings) {
  constexpr int kMostSenders = 16;
  constexpr int kMany = 4;
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::vector<int> senders;
  for (int r = 0; r < size && static_cast<int>(senders.size()) < kMostSenders; ++r)
    if (r != receiver) senders.push_back(r);
  if (senders.empty()) return 0.0;
  std::vector<double> one, many;
  for (int i = 0; i <= settings.repetitions; ++i) {  // the first is a warm-up
    const double t1 = time_completing_us(comm, rank, receiver, senders, 1, settle_us);
    const double tm = time_completing_us(comm, rank, receiver, senders, kMany, settle_us);
    if (i > 0) {
      one.push_back(t1);
      many.push_back(tm);
    }
  }
  const double extra = static_cast<double>(senders.size()) * (kMany - 1);
  const double per_message = rank == receiver ? std::max(0.0, (median(many) - median(one)) / extra) : 0.0;
  return shared_from(comm, receiver, per_message);
}

std::vector<OneWaySample> measure_one_way(MPI_Comm comm, int a, int b, const std::vector<std::size_t>& sizes,
                                          const ProbeSettings& settings) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const std::size_t largest = *std::max_element(sizes.begin(), sizes.end());
  bench::MessageBuffer buffer(rank == a || rank == b ? largest : 0, settings.smpi_shared_buffers);
  std::vector<OneWaySample> samples;
  for (std::size_t bytes : sizes) {
    const int count = static_cast<int>(bytes);
    std::vector<double> times;
    check(MPI_Barrier(comm), "MPI_Barrier");
    for (int i = 0; i <= settings.repetitions; ++i) {
      MPI_Request request;
      if (rank == a) {
        const double start = MPI_Wtime();
        check(MPI_Isend(buffer.data(), count, MPI_BYTE, b, kTag, comm, &request), "MPI_Isend");
        check(MPI_Wait(&request, MPI_STATUS_IGNORE), "MPI_Wait");
        check(MPI_Recv(buffer.data(), count, MPI_BYTE, b, kTag, comm, MPI_STATUS_IGNORE), "MPI_Recv");
        if (i > 0) times.push_back((MPI_Wtime() - start) * 1e6 / 2);
      } else if (rank == b) {
        check(MPI_Recv(buffer.data(), count, MPI_BYTE, a, kTag, comm, MPI_STATUS_IGNORE), "MPI_Recv");
        check(MPI_Isend(buffer.data(), count, MPI_BYTE, a, kTag, comm, &request), "MPI_Isend");
        check(MPI_Wait(&request, MPI_STATUS_IGNORE), "MPI_Wait");
      }
    }
    samples.push_back({bytes, shared_from(comm, a, rank == a ? median(times) : 0.0)});
  }
  return samples;
}

double measure_aggregate_bytes_per_s(MPI_Comm comm, const std::vector<Flow>& flows, std::size_t small,
                                     std::size_t large, const ProbeSettings& settings) {
  const double small_us = measure_flows_us(comm, flows, small, 1, settings);
  const double large_us = measure_flows_us(comm, flows, large, 1, settings);
  if (!(large_us > small_us)) return 0.0;  // no measurable difference: the caller reports it
  return static_cast<double>(flows.size() * (large - small)) / ((large_us - small_us) * 1e-6);
}

double measure_busy_exchange_us(MPI_Comm comm, const std::vector<int>& ranks, std::size_t block_bytes,
                                double copy_bandwidth, const ProbeSettings& settings) {
  constexpr int kCalls = 100;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const bool takes_part = std::find(ranks.begin(), ranks.end(), rank) != ranks.end();
  MPI_Comm group = MPI_COMM_NULL;
  check(MPI_Comm_split(comm, takes_part ? 0 : MPI_UNDEFINED, rank, &group), "MPI_Comm_split");
  std::vector<double> runs;
  if (group != MPI_COMM_NULL) {
    const std::size_t bytes = ranks.size() * block_bytes;
    bench::MessageBuffer send(bytes, settings.smpi_shared_buffers), recv(bytes, settings.smpi_shared_buffers);
    CollectiveOptions direct;
    direct.algorithm = "direct";
    direct.copy_bandwidth = copy_bandwidth;
    const int count = static_cast<int>(block_bytes);
    int failed = 0;
    for (int i = 0; i <= settings.repetitions; ++i) {  // the first is a warm-up
      check(MPI_Barrier(group), "MPI_Barrier");
      const double start = MPI_Wtime();
      // Every rank makes every call, a failed one too, so that none waits for a call another left out.
      for (int c = 0; c < kCalls; ++c) {
        const int rc = alltoall(send.data(), count, MPI_BYTE, recv.data(), count, MPI_BYTE, group, direct);
        if (rc != MPI_SUCCESS) failed = 1;
      }
      double took_us = (MPI_Wtime() - start) * 1e6 / kCalls;
      check(MPI_Allreduce(MPI_IN_PLACE, &took_us, 1, MPI_DOUBLE, MPI_MAX, group), "MPI_Allreduce");
      if (i > 0) runs.push_back(took_us);
    }
    check(MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, group), "MPI_Allreduce");
    MPI_Comm_free(&group);
    if (failed != 0) throw std::runtime_error("busy messages: topocoll's direct failed among the node's ranks");
  }
  return shared_from(comm, ranks.front(), runs.empty() ? 0.0 : median(runs));
}

namespace {

// One run: the time at which `near` has received its flow (us after the barrier), on `near`.
double time_near_flow_once(MPI_Comm comm, int sender, int near, const std::vector<int>& far, std::size_t bytes,
                           bench::MessageBuffer& buffer) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const int count = static_cast<int>(bytes);
  double took_us = 0.0;
  check(MPI_Barrier(comm), "MPI_Barrier");
  const double start = MPI_Wtime();
  if (rank == sender) {
    std::vector<MPI_Request> requests(far.size() + 1);
    check(MPI_Isend(buffer.data(), count, MPI_BYTE, near, kTag, comm, &requests[0]), "MPI_Isend");
    for (std::size_t i = 0; i < far.size(); ++i) {
      check(MPI_Isend(buffer.data(), count, MPI_BYTE, far[i], kTag, comm, &requests[i + 1]), "MPI_Isend");
    }
    check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  } else if (rank == near || std::find(far.begin(), far.end(), rank) != far.end()) {
    check(MPI_Recv(buffer.data(), count, MPI_BYTE, sender, kTag, comm, MPI_STATUS_IGNORE), "MPI_Recv");
    took_us = (MPI_Wtime() - start) * 1e6;
  }
  check(MPI_Barrier(comm), "MPI_Barrier");
  return took_us;
}

}  // namespace

double measure_near_flow_bytes_per_s(MPI_Comm comm, int sender, int near, const std::vector<int>& far,
                                     std::size_t small, std::size_t large, const ProbeSettings& settings) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const bool involved = rank == sender || rank == near || std::find(far.begin(), far.end(), rank) != far.end();
  bench::MessageBuffer buffer(involved ? large : 0, settings.smpi_shared_buffers);
  double at[2] = {0.0, 0.0};
  for (int k = 0; k < 2; ++k) {
    const std::size_t bytes = k == 0 ? small : large;
    time_near_flow_once(comm, sender, near, far, bytes, buffer);  // warm-up
    std::vector<double> times;
    for (int i = 0; i < settings.repetitions; ++i) times.push_back(time_near_flow_once(comm, sender, near, far, bytes, buffer));
    at[k] = shared_from(comm, near, rank == near ? median(times) : 0.0);
  }
  if (!(at[1] > at[0])) return 0.0;  // no measurable difference: the caller reports it
  return static_cast<double>(large - small) / ((at[1] - at[0]) * 1e-6);
}

double measure_memcpy_bytes_per_s(std::size_t bytes, int repetitions) {
  std::vector<char> from(bytes, 1), to(bytes, 0);
  std::memcpy(to.data(), from.data(), bytes);  // warm-up: pages touched
  double best = 0.0;
  for (int i = 0; i < repetitions; ++i) {
    from[static_cast<std::size_t>(i) % bytes] = static_cast<char>(i);
    const auto start = std::chrono::steady_clock::now();
    std::memcpy(to.data(), from.data(), bytes);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    if (to[static_cast<std::size_t>(i) % bytes] != static_cast<char>(i)) throw std::logic_error("memcpy lost a byte");
    best = std::max(best, static_cast<double>(bytes) / took.count());
  }
  return best;
}

}  // namespace topocoll::calibrate
