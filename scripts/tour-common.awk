# Functions shared by the tables of the tour's sections (scripts/tour-*.sh): each section runs
# awk -F, -f scripts/tour-common.awk -f <its table's program>.

# A row of topocoll-bench's CSV (op,algorithm,np,bytes,avg_us,min_us,max_us,iterations,valid)
# whose op field is field `first` (the fields before it are the section's own keys): its
# max_us over `scale` (1000: milliseconds) in t[key, bytes, name], `native` named by the file's
# selector (ompi, or mpich where the file name says so), its bytes in sizes[], and a row that
# is not validated (valid no, or skipped) noted in `bad`.
function take_bench_row(first, key, scale,    name, bytes) {
  name = $(first + 1)
  if (name == "native") name = (FILENAME ~ /mpich/ ? "mpich" : "ompi")
  bytes = $(first + 3)
  t[key, bytes, name] = $(first + 6) / scale
  sizes[bytes] = 1
  if ($(first + 8) != "yes") bad = bad " " (key == "" ? "" : key ":") name "@" bytes
}

# The keys of `set`, as numbers, ascending, in list[1..n]; returns n.
function ascending(set, list,    n, s, i, j, x) {
  n = 0
  for (s in set) list[++n] = s + 0
  for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (list[j] < list[i]) { x = list[i]; list[i] = list[j]; list[j] = x }
  return n
}

# The better (smaller) of the two native selectors' times of (key, bytes).
function better_native(key, bytes) {
  return t[key, bytes, "ompi"] < t[key, bytes, "mpich"] ? t[key, bytes, "ompi"] : t[key, bytes, "mpich"]
}

# "yes" when every row read was validated.
function validated() { return bad == "" ? "yes" : "no" }
