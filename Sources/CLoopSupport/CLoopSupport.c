// Intentionally empty: the target only carries the declarations in include/CLoopSupport.h.
#include "CLoopSupport.h"
