/* SPDX-License-Identifier: MIT */
/* Statistics for simdhttp bench: medians, a distribution-free interval of the median, Welch's
 * t-test. Timings on a shared machine have heavy right tails (bursts 1.5-3.5x slower), so the
 * suite reports medians and order-statistic intervals, which such outliers barely move. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double *sorted_copy(const double *x, size_t n)
{
    double *s = malloc((n ? n : 1) * sizeof *s);
    if (!s) abort();
    memcpy(s, x, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    return s;
}

double bench_median(const double *x, size_t n)
{
    if (n == 0) return NAN;
    double *s = sorted_copy(x, n);
    double m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    free(s);
    return m;
}

void bench_median_ci(const double *x, size_t n, double *lo, double *hi)
{
    if (n == 0) {
        *lo = *hi = NAN;
        return;
    }
    double *s = sorted_copy(x, n);
    /* cdf = P(B < j) for B ~ Binomial(n, 1/2), accumulated in logs to stay exact for big n. */
    size_t j = 0; /* 1-based rank; 0: no interval at 95% (n < 6) */
    double cdf = 0;
    for (size_t k = 0; k < n; k++) {
        double pk = exp(lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1) -
                        (double)n * log(2.0));
        if (cdf + pk > 0.025) break;
        cdf += pk;
        j = k + 1; /* P(B < k + 1) = P(B <= k) <= 0.025 */
    }
    if (j == 0) {
        *lo = s[0];
        *hi = s[n - 1];
    } else {
        *lo = s[j - 1];
        *hi = s[n - j];
    }
    free(s);
}

/* Continued fraction of the incomplete beta function, evaluated by the modified Lentz method. */
static double ibeta_cf(double a, double b, double x)
{
    const double tiny = 1e-300;
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    if (fabs(d) < tiny) d = tiny;
    d = 1 / d;
    double f = d;
    for (int m = 1; m <= 300; m++) {
        double m2 = 2.0 * m;
        double num = m * (b - m) * x / ((a + m2 - 1) * (a + m2)); /* even step */
        d = 1 + num * d;
        c = 1 + num / c;
        if (fabs(d) < tiny) d = tiny;
        if (fabs(c) < tiny) c = tiny;
        d = 1 / d;
        f *= d * c;
        num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1)); /* odd step */
        d = 1 + num * d;
        c = 1 + num / c;
        if (fabs(d) < tiny) d = tiny;
        if (fabs(c) < tiny) c = tiny;
        d = 1 / d;
        double delta = d * c;
        f *= delta;
        if (fabs(delta - 1) < 1e-14) break;
    }
    return f;
}

double bench_ibeta(double a, double b, double x)
{
    if (x <= 0) return 0;
    if (x >= 1) return 1;
    double lfront = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
    /* The fraction converges fast for x < (a+1)/(a+b+2); use the symmetry beyond. */
    if (x < (a + 1) / (a + b + 2)) return exp(lfront) * ibeta_cf(a, b, x) / a;
    return 1 - exp(lfront) * ibeta_cf(b, a, 1 - x) / b;
}

static void mean_var(const double *x, size_t n, double *mean, double *var)
{
    double m = 0, v = 0;
    for (size_t i = 0; i < n; i++) m += x[i];
    m /= (double)n;
    for (size_t i = 0; i < n; i++) v += (x[i] - m) * (x[i] - m);
    *mean = m;
    *var = n > 1 ? v / (double)(n - 1) : 0;
}

double bench_welch_p(const double *a, size_t na, const double *b, size_t nb)
{
    if (na < 2 || nb < 2) return NAN;
    double ma, va, mb, vb;
    mean_var(a, na, &ma, &va);
    mean_var(b, nb, &mb, &vb);
    double sa = va / (double)na, sb = vb / (double)nb;
    if (sa + sb == 0) return ma == mb ? 1 : 0;
    double t = (ma - mb) / sqrt(sa + sb);
    double df = (sa + sb) * (sa + sb) / (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
    /* Two-sided tail of Student's t with df degrees of freedom. */
    return bench_ibeta(df / 2, 0.5, df / (df + t * t));
}
