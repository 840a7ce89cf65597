/* locsim sweep / locsim report: the evaluation harness (src/harness/). */
#include "cli/cli.h"
#include "harness/report.h"
#include "harness/sweep.h"

int cmd_sweep(int argc, char **argv) { return sweep_main(argc, argv); }
int cmd_report(int argc, char **argv) { return report_main(argc, argv); }
