/* What the plain MPI timing programs (topocoll-call-cost, topocoll-first-call-cost) share: their
 * counts read from the command line, and the sort their medians need. */
#ifndef TOPOCOLL_TOOLS_TIMING_ARGUMENTS_H
#define TOPOCOLL_TOOLS_TIMING_ARGUMENTS_H

#include <stdio.h>
#include <stdlib.h>

/* qsort's comparison of doubles, ascending. */
static inline int compare_doubles(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

/* The count `text` names, from 1 to 2^`power`; anything else is refused: `program` says which
 * argument (`what`) and what it got, and exits with status 2. */
static inline int parse_count(const char* program, const char* text, const char* what, int power) {
  char* end = NULL;
  const long value = strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || value < 1 || value > 1L << power) {
    fprintf(stderr, "%s: %s must be an integer from 1 to 2^%d, got '%s'\n", program, what, power, text);
    exit(2);
  }
  return (int)value;
}

#endif
