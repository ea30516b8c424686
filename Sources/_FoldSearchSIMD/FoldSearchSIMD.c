#include "FoldSearchSIMD.h"
