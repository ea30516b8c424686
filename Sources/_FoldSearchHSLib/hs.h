// System Hyperscan (libhyperscan-dev), for the _FoldSearchHyperscan shim
// only: foldbench's peer for many queries. No Swift module imports this one.
#include <hs/hs.h>
