// FoldSearchHyperscan.c — the shim behind FoldSearchHyperscan.h: literal
// block-mode databases (hs_compile_lit_multi) and an event-counting scan.
#include "FoldSearchHyperscan.h"

#include <hs.h>
#include <stdlib.h>
#include <string.h>

struct fshs_set {
  hs_database_t *database;
  hs_scratch_t *scratch;
};

fshs_set *fshs_compile(const uint8_t *const *literals, const size_t *lengths, uint32_t count,
                       int32_t leftmost, char *message, size_t message_capacity) {
  unsigned *flags = malloc(sizeof(unsigned) * (count ? count : 1));
  unsigned *ids = malloc(sizeof(unsigned) * (count ? count : 1));
  if (!flags || !ids) {
    free(flags);
    free(ids);
    return NULL;
  }
  for (uint32_t k = 0; k < count; k++) {
    flags[k] = HS_FLAG_CASELESS | (leftmost ? HS_FLAG_SOM_LEFTMOST : 0);
    ids[k] = k;
  }
  hs_database_t *database = NULL;
  hs_compile_error_t *error = NULL;
  hs_error_t status = hs_compile_lit_multi((const char *const *)literals, flags, ids, lengths,
                                           count, HS_MODE_BLOCK, NULL, &database, &error);
  free(flags);
  free(ids);
  if (status != HS_SUCCESS) {
    if (message && message_capacity) {
      strncpy(message, error && error->message ? error->message : "hs_compile_lit_multi failed",
              message_capacity - 1);
      message[message_capacity - 1] = 0;
    }
    hs_free_compile_error(error);
    return NULL;
  }
  fshs_set *set = calloc(1, sizeof(fshs_set));
  if (!set) {
    hs_free_database(database);
    return NULL;
  }
  set->database = database;
  if (hs_alloc_scratch(database, &set->scratch) != HS_SUCCESS) {
    hs_free_database(database);
    free(set);
    return NULL;
  }
  return set;
}

typedef struct {
  int64_t events;
  int64_t kept;
  unsigned long long kept_end;
} fshs_count;

static int fshs_on_match(unsigned int id, unsigned long long from, unsigned long long to,
                         unsigned int flags, void *context) {
  (void)id;
  (void)flags;
  fshs_count *count = context;
  count->events++;
  if (from >= count->kept_end) {
    count->kept++;
    count->kept_end = to;
  }
  return 0;
}

int64_t fshs_scan(fshs_set *set, const uint8_t *haystack, size_t n, int64_t *non_overlapping) {
  fshs_count count = {0, 0, 0};
  if (hs_scan(set->database, (const char *)haystack, (unsigned)n, 0, set->scratch, fshs_on_match,
              &count) != HS_SUCCESS)
    return -1;
  if (non_overlapping) *non_overlapping = count.kept;
  return count.events;
}

size_t fshs_database_size(const fshs_set *set) {
  size_t size = 0;
  hs_database_size(set->database, &size);
  return size;
}

void fshs_free(fshs_set *set) {
  if (!set) return;
  hs_free_scratch(set->scratch);
  hs_free_database(set->database);
  free(set);
}
