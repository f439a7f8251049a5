# SPDX-License-Identifier: MIT
# Charts of `simdhttp bench --scaling --plot-data DIR` (make bench-plots). Usage:
#   gnuplot -e "dir='bench/results'" bench/plots.gp
# Every .dat file has a header row naming the columns (the parsers).
if (!exists("dir")) dir = 'bench/results'
set terminal svg size 900,480 dynamic font "sans,12" background rgb "white"
set datafile missing "nan"
ncols(f) = int(system("head -n 1 '".f."' | wc -w"))
set key outside right top
# ten distinct colours (the default eight would repeat within one chart)
colors = "#1f77b4 #2ca02c #17becf #bcbd22 #ff7f0e #d62728 #9467bd #000000 #8c564b #e377c2"
do for [i=1:10] { set linetype i linecolor rgb word(colors, i) linewidth 2 pointtype i }
set grid ytics
set style data linespoints

set output dir.'/corpus.svg'
set bmargin 7
set title "ns per message, corpus files (lower is better)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.9 border -1
set logscale y
set ylabel "ns/message (log)"
set xtics rotate by -30
N = ncols(dir.'/corpus.dat')
plot for [c=2:N] dir.'/corpus.dat' using c:xtic(1) title columnheader(c)
unset logscale y
set xtics norotate
set bmargin

set style data linespoints
set output dir.'/scaling-fields.svg'
set title "ns per message against the number of fields (generated GET)"
set xlabel "fields"
set ylabel "ns/message"
set logscale x 2
N = ncols(dir.'/scaling-fields.dat')
plot for [c=2:N] dir.'/scaling-fields.dat' using 1:c title columnheader(c)

set output dir.'/scaling-values.svg'
set title "ns per message against field value length (Host + 4 fields of that length)"
set xlabel "value bytes"
set ylabel "ns/message (log)"
set logscale xy 2
N = ncols(dir.'/scaling-values.dat')
plot for [c=2:N] dir.'/scaling-values.dat' using 1:c title columnheader(c)
unset logscale y

set output dir.'/streaming-pieces.svg'
set title "streaming throughput against the piece size given per call (65536 = whole input)"
set xlabel "bytes per call"
set ylabel "GB/s (log)"
set logscale x 2
set logscale y 10
N = ncols(dir.'/streaming-pieces.dat')
plot for [c=2:N] dir.'/streaming-pieces.dat' using 1:c title columnheader(c)
