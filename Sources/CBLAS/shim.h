#ifndef CBLAS_SHIM_H
#define CBLAS_SHIM_H
/* The system CBLAS interface: Debian's libblas-dev (reference BLAS), or OpenBLAS
 * when libopenblas0-pthread is installed and libblas.so.3 points at it. */
#include <cblas.h>
#endif
