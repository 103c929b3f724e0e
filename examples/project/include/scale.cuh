#pragma once

// The factor `scale.cu` multiplies by.
#define SCALE_FACTOR 3
