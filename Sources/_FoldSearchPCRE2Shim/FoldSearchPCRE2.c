// FoldSearchPCRE2.c — the only code that includes PCRE2's header.
//
// Compile options: PCRE2_UTF (pattern and subject are UTF-8) and PCRE2_UCP
// (\w, \d, \s, \b and the POSIX classes follow Unicode properties, so they
// see the folded text's letters: "ø" and "ж" are word characters). No
// PCRE2_CASELESS: the pattern's literals are folded exactly as the text is,
// so both sides already compare as equal what the profile makes equal.
// Subjects are folded buffers, valid UTF-8 by construction: matches pass
// PCRE2_NO_UTF_CHECK.

#include "FoldSearchPCRE2.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>

struct fspcre_code {
  pcre2_code *code;
  bool jit;
};

struct fspcre_matcher {
  const fspcre_code *code;
  pcre2_match_data *data;
  pcre2_match_context *context;
  pcre2_jit_stack *stack;
};

const size_t FSPCRE_UNSET = PCRE2_UNSET;
const int32_t FSPCRE_ERROR_MATCHLIMIT = PCRE2_ERROR_MATCHLIMIT;
const int32_t FSPCRE_ERROR_DEPTHLIMIT = PCRE2_ERROR_DEPTHLIMIT;
const int32_t FSPCRE_ERROR_HEAPLIMIT = PCRE2_ERROR_HEAPLIMIT;
const int32_t FSPCRE_ERROR_JIT_STACKLIMIT = PCRE2_ERROR_JIT_STACKLIMIT;

fspcre_code *fspcre_compile(const uint8_t *pattern, size_t length, bool multiline,
                            int32_t *error_code, size_t *error_offset) {
  int code_error = 0;
  PCRE2_SIZE offset = 0;
  uint32_t options = PCRE2_UTF | PCRE2_UCP | (multiline ? PCRE2_MULTILINE : 0);
  pcre2_code *code = pcre2_compile(pattern, length, options, &code_error, &offset, NULL);
  if (code == NULL) {
    *error_code = code_error;
    *error_offset = offset;
    return NULL;
  }
  fspcre_code *result = malloc(sizeof *result);
  if (result == NULL) {
    pcre2_code_free(code);
    *error_code = PCRE2_ERROR_NOMEMORY;
    *error_offset = 0;
    return NULL;
  }
  result->code = code;
  result->jit = pcre2_jit_compile(code, PCRE2_JIT_COMPLETE) == 0;
  return result;
}

void fspcre_code_free(fspcre_code *code) {
  if (code == NULL) return;
  pcre2_code_free(code->code);
  free(code);
}

uint32_t fspcre_capture_count(const fspcre_code *code) {
  uint32_t count = 0;
  pcre2_pattern_info(code->code, PCRE2_INFO_CAPTURECOUNT, &count);
  return count;
}

int32_t fspcre_group_number(const fspcre_code *code, const uint8_t *name, size_t length) {
  uint8_t buffer[256];
  if (length >= sizeof buffer) return PCRE2_ERROR_NOSUBSTRING;
  for (size_t k = 0; k < length; k++) buffer[k] = name[k];
  buffer[length] = 0;
  return pcre2_substring_number_from_name(code->code, buffer);
}

bool fspcre_is_jit(const fspcre_code *code) { return code->jit; }

int32_t fspcre_error_message(int32_t error_code, uint8_t *buffer, size_t capacity) {
  return pcre2_get_error_message(error_code, buffer, capacity);
}

fspcre_matcher *fspcre_matcher_new(const fspcre_code *code, uint32_t match_limit,
                                   uint32_t depth_limit) {
  fspcre_matcher *matcher = calloc(1, sizeof *matcher);
  if (matcher == NULL) return NULL;
  matcher->code = code;
  matcher->data = pcre2_match_data_create_from_pattern(code->code, NULL);
  matcher->context = pcre2_match_context_create(NULL);
  if (matcher->data == NULL || matcher->context == NULL) {
    fspcre_matcher_free(matcher);
    return NULL;
  }
  if (match_limit > 0) pcre2_set_match_limit(matcher->context, match_limit);
  if (depth_limit > 0) pcre2_set_depth_limit(matcher->context, depth_limit);
  if (code->jit) {
    // 32 KiB to start, up to 1 MiB: deep recursion in the JIT fails with
    // PCRE2_ERROR_JIT_STACKLIMIT instead of growing without bound.
    matcher->stack = pcre2_jit_stack_create(32 * 1024, 1024 * 1024, NULL);
    if (matcher->stack == NULL) {
      fspcre_matcher_free(matcher);
      return NULL;
    }
    pcre2_jit_stack_assign(matcher->context, NULL, matcher->stack);
  }
  return matcher;
}

void fspcre_matcher_free(fspcre_matcher *matcher) {
  if (matcher == NULL) return;
  if (matcher->stack != NULL) pcre2_jit_stack_free(matcher->stack);
  if (matcher->context != NULL) pcre2_match_context_free(matcher->context);
  if (matcher->data != NULL) pcre2_match_data_free(matcher->data);
  free(matcher);
}

int32_t fspcre_match(fspcre_matcher *matcher, const uint8_t *subject, size_t length,
                     size_t start, bool anchored, bool not_empty_at_start) {
  uint32_t options = PCRE2_NO_UTF_CHECK;
  if (anchored) options |= PCRE2_ANCHORED;
  if (not_empty_at_start) options |= PCRE2_NOTEMPTY_ATSTART;
  // A pattern compiled by the JIT still runs through pcre2_match, which
  // uses the JIT code unless an option it does not support is given.
  int rc = pcre2_match(matcher->code->code, subject, length, start, options, matcher->data,
                       matcher->context);
  if (rc == PCRE2_ERROR_NOMATCH) return 0;
  if (rc == 0) {
    // The ovector was too small: cannot happen for match data sized from the
    // pattern; report every pair as set.
    return (int32_t)pcre2_get_ovector_count(matcher->data);
  }
  return rc;
}

const size_t *fspcre_ovector(const fspcre_matcher *matcher) {
  return pcre2_get_ovector_pointer(matcher->data);
}
