#!/usr/bin/awk -f
# Turns the outputs of scripts/crossbar-experiment.sh into the Markdown tables of
# docs/results.md. Inputs, recognised by name: *-ptp.csv (p = 2 platform check),
# *-ompi.csv and *-mpich.csv (topocoll-bench --format csv), *-predicted.txt (osu format with
# --predict), and the same sweep under other settings: *-cm02.csv, *-smpi-default.csv,
# *-crosstraffic.csv. Bandwidth per node = (p-1) * bytes per block / time: the data a node sends to
# the others (its own block excluded), in MB/s (10^6 bytes per second, i.e. bytes per us).
# Variables: np (16) and packet_bytes (1492).
BEGIN {
  FS = ","
  # Tam and Wang, Table 1 (8275-326 switch, p = 16): the oracle of the platform check.
  o_s = 12.5; g = 123; o_r = 20; u_r = 7; latency = 0.3387 * 16 + 149
  link_mb_s = packet_bytes / g
  split("direct group-shuffle shift pairwise bruck", predicted_order, " ")
  split("direct group-shuffle shift pairwise bruck native", variant_order, " ")
}

FILENAME ~ /-ptp\.csv$/ && $1 == "alltoall" { ptp[$4] = $5; next }
FILENAME ~ /-ompi\.csv$/ && $1 == "alltoall" { record($2, $4, $5, $9); next }
FILENAME ~ /-mpich\.csv$/ && $1 == "alltoall" { record($2 " (mpich)", $4, $5, $9); next }
FILENAME ~ /-(cm02|smpi-default|crosstraffic)\.csv$/ && $1 == "alltoall" {
  setting = FILENAME; sub(/.*-fig2-/, "", setting); sub(/\.csv$/, "", setting)
  variant[setting, $2, $4] = $5
  next
}
FILENAME ~ /-predicted\.txt$/ {
  if ($0 ~ /^# algorithm: /) { split($0, words, /[ ,]+/); algorithm = words[3]; next }
  if ($0 ~ /^[0-9]/) {
    split($0, fields, / +/)
    predicted[algorithm, fields[1]] = fields[6]
    predicted_run[algorithm, fields[1]] = fields[2]
  }
  next
}

function record(algorithm, bytes, avg_us, valid) {
  measured[algorithm, bytes] = avg_us
  if (valid != "yes") invalid = invalid " " algorithm "@" bytes "=" valid
  if (!(bytes in seen_bytes)) { seen_bytes[bytes] = 1; sizes[++size_count] = bytes }
}

# Bandwidth per node under another network setting, and its ratio to the SMPI-unit run.
function print_variant_table(setting, title,    i, j, bytes, a, line) {
  printf "\n%s: bandwidth per node (MB/s) and, in brackets, time / time under SMPI-unit:\n\n", title
  print "| k | direct | group-shuffle w=5 | shift | pairwise | bruck | native (ompi) |"
  print "|---:|---:|---:|---:|---:|---:|---:|"
  for (i = 1; i <= size_count; i++) {
    bytes = sizes[i]
    line = sprintf("| %d", bytes / packet_bytes)
    for (j = 1; j <= 6; j++) {
      a = variant_order[j]
      line = line sprintf(" | %.2f (%.3f)", per_node_mb_s(bytes, variant[setting, a, bytes]),
                          variant[setting, a, bytes] / measured[a, bytes])
    }
    print line " |"
  }
}

function per_node_mb_s(bytes, us) { return us > 0 ? (np - 1) * bytes / us : 0 }
function cell(algorithm, bytes) {
  return ((algorithm, bytes) in measured) ? sprintf("%.2f", per_node_mb_s(bytes, measured[algorithm, bytes])) : "-"
}

END {
  count = 0
  for (bytes in ptp) ptp_sizes[++count] = bytes + 0
  sort_numbers(ptp_sizes, count)
  print "Platform check (p = 2, shift: one message each way; copies free):\n"
  print "| k | bytes | T_ptp eq. (1) (us) | simulated (us) | simulated - T_ptp (us) |"
  print "|---:|---:|---:|---:|---:|"
  for (i = 1; i <= count; i++) {
    bytes = ptp_sizes[i]; k = bytes / packet_bytes
    t_ptp = o_s + (k - 1) * g + latency + o_r + u_r
    printf "| %d | %d | %.2f | %.2f | %+.2f |\n", k, bytes, t_ptp, ptp[bytes], ptp[bytes] - t_ptp
  }

  sort_numbers(sizes, size_count)
  printf "\nBandwidth per node (MB/s), p = %d, measured in simulation (avg_us of the CSV); link: %.2f MB/s:\n\n", np, link_mb_s
  print "| k | bytes/block | direct | group-shuffle w=5 | shift | pairwise | bruck | native (ompi) | native (mpich) | optimum eq. (2) | direct / optimum |"
  print "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for (i = 1; i <= size_count; i++) {
    bytes = sizes[i]
    optimum = per_node_mb_s(bytes, predicted["direct", bytes])
    printf "| %d | %d | %s | %s | %s | %s | %s | %s | %s | %.2f | %.1f%% |\n", bytes / packet_bytes, bytes,
           cell("direct", bytes), cell("group-shuffle", bytes), cell("shift", bytes), cell("pairwise", bytes),
           cell("bruck", bytes), cell("native", bytes), cell("native (mpich)", bytes), optimum,
           100 * per_node_mb_s(bytes, measured["direct", bytes]) / optimum
  }

  print "\nPredicted bandwidth per node (MB/s), Tam-Wang closed forms (predict_us, Table 1 at p = 16),"
  print "and simulated time / predicted time:\n"
  print "| k | direct (= optimum) | group-shuffle w=5 | shift | pairwise | bruck | sim/pred direct | group-shuffle | shift | pairwise | bruck |"
  print "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for (i = 1; i <= size_count; i++) {
    bytes = sizes[i]
    line = sprintf("| %d", bytes / packet_bytes)
    for (j = 1; j <= 5; j++) line = line sprintf(" | %.2f", per_node_mb_s(bytes, predicted[predicted_order[j], bytes]))
    for (j = 1; j <= 5; j++) {
      a = predicted_order[j]
      line = line sprintf(" | %.4f", measured[a, bytes] / predicted[a, bytes])
    }
    print line " |"
  }

  # CM02 with factors 1 is expected to give the SMPI-unit times exactly.
  worst = 0
  for (key in variant) {
    split(key, parts, SUBSEP)
    if (parts[1] != "cm02") continue
    d = variant[key] - measured[parts[2], parts[3]]; if (d < 0) d = -d
    if (d > worst) worst = d
  }
  printf "\nLargest difference between CM02 and SMPI-unit over all points: %.3f us.\n", worst
  print_variant_table("smpi-default", "SMPI-default (SMPI's calibrated latency and bandwidth factors)")
  print_variant_table("crosstraffic", "SMPI-unit with network/crosstraffic:1 (5% of each flow on the reverse path)")

  # The --predict run (shared buffers, 1 call) must time the same as the CSV run.
  worst = 0
  for (key in predicted_run) {
    if (!(key in measured)) continue
    d = predicted_run[key] - measured[key]; if (d < 0) d = -d
    if (d > worst) worst = d
  }
  printf "\nLargest difference between the CSV runs and the --predict runs: %.2f us.\n", worst
  print (invalid == "" ? "Every point validated (valid = yes)." : "NOT validated:" invalid)
}

function sort_numbers(values, n,    i, j, v) {
  for (i = 2; i <= n; i++) {
    v = values[i]
    for (j = i - 1; j >= 1 && values[j] + 0 > v + 0; j--) values[j + 1] = values[j]
    values[j + 1] = v
  }
}
