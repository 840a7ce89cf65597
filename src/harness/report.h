/* locsim report: the tables and charts a spec's report: section asks for, from
 * the results database, as Markdown and as one self-contained HTML file with
 * inline SVG bar charts.  See docs/harness.md for the recipe language. */
#ifndef LOCSIM_HARNESS_REPORT_H
#define LOCSIM_HARNESS_REPORT_H

int report_main(int argc, char **argv);   /* locsim report SPEC [--db FILE] [--out DIR] */

#endif
