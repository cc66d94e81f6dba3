# topocoll-platform's errors name the problem, and `bound` gives the expected number.
function(expect_failure pattern)
  execute_process(COMMAND ${TOOL} ${ARGN} --output-dir ${WORK} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(rc EQUAL 0 OR NOT "${out}${err}" MATCHES "${pattern}")
    message(FATAL_ERROR "topocoll-platform ${ARGN}: expected a failure matching '${pattern}', got rc=${rc}: ${out}${err}")
  endif()
endfunction()

expect_failure("at least one node" two-clusters --n1 0 --n2 4)
expect_failure("needs a unit" two-clusters --n1 2 --n2 4 --node-bw 1000)
expect_failure("unknown unit 'parsec'" two-clusters --n1 2 --n2 4 --wan-lat 5parsec)
expect_failure("different names" two-clusters --n1 2 --n2 4 --names a,a)
expect_failure("--n2 is required" two-clusters --n1 2)
expect_failure("SPLITDUPLEX" two-clusters --n1 2 --n2 4 --switch-sharing SPLITDUPLEX)
expect_failure("NONBLOCKING" two-clusters --n1 2 --n2 4 --wan-sharing NONBLOCKING)
expect_failure("must use only letters" two-clusters --n1 2 --n2 4 --name ../x)

# 30 + 30, 16 MiB blocks: the 900 blocks each way over the 10 Gbps backbone take
# 900 * 16777216 B / 1.25e9 B/s = 12079595.52 us, plus the 5060 us route between the clusters.
execute_process(COMMAND ${TOOL} bound --n1 30 --n2 30 -m 16777216 RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "30,30,60,16777216,12084655\\.520,wan,")
  message(FATAL_ERROR "unexpected bound (${rc}): ${out}")
endif()
# 1-byte blocks: the latency between the clusters dominates.
execute_process(COMMAND ${TOOL} bound --n1 20 --n2 40 -m 1 RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "20,40,60,1,5060\\.[0-9]+,latency,5060\\.000")
  message(FATAL_ERROR "unexpected bound (${rc}): ${out}")
endif()

# Clusters: errors, and the bound from the network's cuts.
expect_failure("one name per cluster" clusters --nodes 2,3,4 --names a,b)
expect_failure("--nodes is required" clusters)
expect_failure("at least two clusters" clusters --nodes 5)
execute_process(COMMAND ${TOOL} bound --nodes 2,3 --n1 2 --n2 3 RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "either --nodes or --n1")
  message(FATAL_ERROR "bound with --nodes and --n1: expected a clear failure, got rc=${rc}: ${err}")
endif()
# 10 + 10 + 10, 16 MiB blocks, a link per pair: each node's link carries 29 blocks each way at
# 1 Gbps (29 * 16777216 / 1.25e8 s = 3892314.112 us) after the 50 us route inside its cluster.
execute_process(COMMAND ${TOOL} bound --nodes 10,10,10 -m 16777216 RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "^nodes,np,bytes,.*\n10\\+10\\+10,30,16777216,3892364\\.112,node-link,5060\\.000,")
  message(FATAL_ERROR "unexpected bound (${rc}): ${out}")
endif()
# Through a 1 Gbps core, each cluster's link carries its 10 x 20 blocks each way:
# 200 * 16777216 / 1.25e8 s = 26843545.6 us, after the 10060 us route through two WAN links.
execute_process(COMMAND ${TOOL} bound --nodes 10,10,10 --wan core --wan-bw 1Gbps -m 16777216 RESULT_VARIABLE rc
                OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "10\\+10\\+10,30,16777216,26853605\\.600,wan,10060\\.000,")
  message(FATAL_ERROR "unexpected core bound (${rc}): ${out}")
endif()

# Switch trees: errors.
expect_failure("uplink to every spine" switch-tree --leaves 4 --hosts-per-leaf 2 --spines 3 --uplinks 2)
expect_failure("at least two leaves" switch-tree --leaves 1 --hosts-per-leaf 2)
expect_failure("--hosts-per-leaf is required" switch-tree --leaves 4)

# The bound of a platform file, from the command it records: the shipped 30 + 30 gives the
# description's number; a platform not made by the tool is refused, saying why.
execute_process(COMMAND ${TOOL} bound --platform ${SOURCE}/platforms/two-clusters-30-30.xml -m 16777216
                RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "two-clusters-30-30,60,16777216,12084655\\.520,wan,5060\\.000,wan,")
  message(FATAL_ERROR "unexpected platform bound (${rc}): ${out}")
endif()
execute_process(COMMAND ${TOOL} bound --platform ${SOURCE}/platforms/crossbar-16.xml RESULT_VARIABLE rc
                ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "records no topocoll-platform")
  message(FATAL_ERROR "bound of a hand-made platform: expected a clear failure, got rc=${rc}: ${err}")
endif()

# A multi-layer full mesh: its size and the job's box are checked with the reason.
expect_failure("--d must be 1..6" mlfm --d 0)
expect_failure("--d must be 1..6" mlfm --d 7)
expect_failure("--d is required" mlfm)
expect_failure("--last-layer-servers must be 1..d" mlfm --d 3 --last-layer-servers 4)
expect_failure("1 <= M <= L - 1" mlfm --d 3 --job 2,3,3)
expect_failure("2 <= L <= d \\+ 1" mlfm --d 3 --job 1,5,2)
expect_failure("1 <= N <= d" mlfm --d 3 --job 4,3,2)
expect_failure("layer 2 hold only 2 servers" mlfm --d 3 --last-layer-servers 2 --job 3,4,3)
expect_failure("give the box as N,L,M" mlfm --d 3 --job 2,3)
expect_failure("needs a unit" mlfm --d 3 --latency 5)
