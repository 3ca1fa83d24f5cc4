/* The C compiler's own results of gcc_port.h's builtins (check_gcc.sh compares them with
 * gcc_builtins_test's, the same header compiled under runqcheck). */
#include <stdio.h>

#include "gcc_port.h"

int main(void) {
  struct gp_box b;
  uint32_t got[64];
  int k, i;
  gp_init(&b);
  k = gp_exercise(&b, got);
  for (i = 0; i < k; i++) printf("%u ", (unsigned)got[i]);
  printf("\n");
  return 0;
}
