#include "testlib.h"
int main(void){return t_summary();}
