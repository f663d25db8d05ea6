/*
 * SPDX-License-Identifier: Apache-2.0 (as the rest of edge-gateway)
 *
 * Compares glibc-compat.c with glibc's own __isoc23_strtol, __isoc23_strtoll, __isoc23_strtoul,
 * __isoc23_sscanf, strlcpy and strlcat on many inputs: results, end pointers, errno, and every
 * byte the functions may write. Needs a glibc that has them (>= 2.38: the sid root's).
 *
 * Build and run (the sid root; arm64_test_glibc_compat in lib.sh does this):
 *   cc -std=gnu11 -O1 -Wall -Wextra -DEGW_COMPAT_PREFIX glibc-compat.c glibc-compat-test.c -o t && ./t
 * Prints each difference (the first 50) and then "N passed, N failed"; exits 1 on any failure.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* glibc's (declared here: -std=gnu11 headers name only the older functions). */
extern long __isoc23_strtol(const char *, char **, int);
extern long long __isoc23_strtoll(const char *, char **, int);
extern unsigned long __isoc23_strtoul(const char *, char **, int);
extern int __isoc23_sscanf(const char *, const char *, ...);

/* glibc-compat.c built with -DEGW_COMPAT_PREFIX. */
extern long egw_compat___isoc23_strtol(const char *, char **, int);
extern long long egw_compat___isoc23_strtoll(const char *, char **, int);
extern unsigned long egw_compat___isoc23_strtoul(const char *, char **, int);
extern int egw_compat___isoc23_sscanf(const char *, const char *, ...);
extern size_t egw_compat_strlcpy(char *, const char *, size_t);
extern size_t egw_compat_strlcat(char *, const char *, size_t);

static int passed, failed;

static void check(int ok, const char *what, ...)
{
    if (ok) {
        passed++;
        return;
    }
    if (++failed <= 50) {
        va_list arguments;
        va_start(arguments, what);
        printf("FAIL ");
        vprintf(what, arguments);
        printf("\n");
        va_end(arguments);
    }
}

/* ---- Inputs ---------------------------------------------------------------------------- */

#define MAX_INPUTS 160
static const char *inputs[MAX_INPUTS];
static int input_count;
static char generated[40][200];
static int generated_count;

static void add(const char *text) { inputs[input_count++] = text; }

/* prefix + `count` copies of `digit` + suffix, kept for the whole run. */
static void add_repeated(const char *prefix, const char *first, char digit, int count, const char *suffix)
{
    char *text = generated[generated_count++];
    int length = snprintf(text, sizeof generated[0], "%s%s", prefix, first);
    memset(text + length, digit, (size_t)count);
    snprintf(text + length + count, sizeof generated[0] - (size_t)(length + count), "%s", suffix);
    add(text);
}

static void make_inputs(void)
{
    static const char *fixed[] = {
        "", " ", "0", "1", "-1", "+1", "42", "-42", "7z", "0b", "0B", "0b0", "0b1", "0b101", "0B11",
        "0B11x", "-0b101", "+0b11", "-0B1", " \t\n0b11", "\v\f\r 0b1 ", "0b2", "0b 1", "0b0b1", "00b1",
        "0bb1", "0b12", "1b1", "- 0b1", "--0b1", "+-0b1", "-+1", "0x", "0X", "0x1f", "0X1F", "0xg",
        "0x0b1", "0b1e", "0b1f", "017", "08", "019", "z", "Z", "zz", "-z", " +", "-", "+", "0b1 ",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "18446744073709551615", "18446744073709551616", "-18446744073709551615", "-18446744073709551616",
        "2147483647", "2147483648", "-2147483649", "4294967296", "255", "256", "-129", "65536",
        "12 0b11 ff", "0b101,0B11;rest", "0b1 0b10 0x10", "-0b1 7", "0b11%0b1", "x0b1", "abc",
        "0b1b1", "0b1 abc 0b1", "1.5 0b1", "  +0b", "0b1abc", "0b10,0b11", "5 0b", "b101", "%0b1",
        "0b101 0b2", "   -0b0", "0B1111111111111111", "10 20 30", "0b1x0b1",
    };
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        add(fixed[i]);
    /* Around 2^63 and 2^64, in binary, with and without signs and prefixes. */
    add_repeated("0b", "", '1', 63, "");
    add_repeated("0b", "", '1', 64, "");
    add_repeated("0b", "", '1', 65, "");
    add_repeated("0b", "1", '0', 63, "");
    add_repeated("-0b", "1", '0', 63, "");
    add_repeated("-0b", "1", '0', 63, "1");
    add_repeated("-0b", "", '1', 63, "");
    add_repeated("0b", "1", '0', 64, "");
    add_repeated("-0b", "1", '0', 64, "");
    add_repeated("-0b", "", '1', 64, "");
    add_repeated("0b", "", '0', 100, "1");
    add_repeated("0B", "", '0', 120, "101 rest");
    add_repeated("", "", '1', 64, "");
    add_repeated("-", "", '1', 65, "");
    add_repeated("0b", "", '1', 31, " 0b1");
    add_repeated("0b", "", '1', 32, " -0b1");
    add_repeated("0b", "1", '0', 31, "");
    add_repeated("-0b", "1", '0', 31, "");
    add_repeated("0b", "1", '0', 32, "");
}

/* ---- strtol, strtoll, strtoul ------------------------------------------------------------ */

#define COMPARE_STRTO(type, format, glibc, compat)                                                         \
    do {                                                                                                   \
        char *glibc_end = NULL, *compat_end = NULL;                                                        \
        errno = 4242;                                                                                      \
        type glibc_value = glibc(text, &glibc_end, base);                                                  \
        int glibc_errno = errno;                                                                           \
        errno = 4242;                                                                                      \
        type compat_value = compat(text, &compat_end, base);                                               \
        int compat_errno = errno;                                                                          \
        check(glibc_value == compat_value && glibc_end == compat_end && glibc_errno == compat_errno,       \
              #glibc "(\"%s\", base %d): glibc " format " end +%td errno %d, compat " format                \
                     " end +%td errno %d",                                                                 \
              text, base, glibc_value, glibc_end - text, glibc_errno, compat_value, compat_end - text,     \
              compat_errno);                                                                               \
        errno = 4242;                                                                                      \
        glibc_value = glibc(text, NULL, base);                                                             \
        glibc_errno = errno;                                                                               \
        errno = 4242;                                                                                      \
        compat_value = compat(text, NULL, base);                                                           \
        check(glibc_value == compat_value && glibc_errno == errno,                                         \
              #glibc "(\"%s\", NULL, base %d): glibc " format ", compat " format, text, base, glibc_value, \
              compat_value);                                                                               \
    } while (0)

static void test_strto(void)
{
    static const int bases[] = {0, 2, 8, 10, 16, 36, 3, 1, 37, -1};
    for (int i = 0; i < input_count; i++) {
        const char *text = inputs[i];
        for (size_t b = 0; b < sizeof bases / sizeof bases[0]; b++) {
            int base = bases[b];
            COMPARE_STRTO(long, "%ld", __isoc23_strtol, egw_compat___isoc23_strtol);
            COMPARE_STRTO(long long, "%lld", __isoc23_strtoll, egw_compat___isoc23_strtoll);
            COMPARE_STRTO(unsigned long, "%lu", __isoc23_strtoul, egw_compat___isoc23_strtoul);
        }
    }
}

/* ---- sscanf ------------------------------------------------------------------------------- */

/* Every scanf argument is a pointer: each call gets the same six buffers, filled with a pattern
   first, whatever the format converts into them; then every byte is compared. */
struct buffers {
    unsigned char bytes[6][256];
};

static int scan(int use_glibc, const char *input, const char *format, struct buffers *out)
{
    memset(out, 0xa5, sizeof *out);
    unsigned char(*b)[256] = out->bytes;
    if (use_glibc)
        return __isoc23_sscanf(input, format, b[0], b[1], b[2], b[3], b[4], b[5]);
    return egw_compat___isoc23_sscanf(input, format, b[0], b[1], b[2], b[3], b[4], b[5]);
}

/* Whether the format is one conversion and nothing else ("%lli", "%*3b"). */
static int conversion_alone(const char *format)
{
    size_t length = strlen(format);
    return length >= 2 && format[0] == '%' && strspn(format + 1, "0123456789*'Ihlqjztm") == length - 2
        && strchr("%[", format[length - 1]) == NULL;
}

static void test_sscanf(void)
{
    static const char *formats[] = {
        "%i", "%b", "%d", "%x", "%o", "%u", "%1i", "%2i", "%3i", "%4i", "%0i", "%70i", "%1b", "%2b",
        "%3b", "%hhi", "%hi", "%li", "%lli", "%ji", "%zi", "%ti", "%Li", "%qi", "%hhb", "%hb", "%lb",
        "%llb", "%jb", "%zb", "%*i", "%*b", "%i%n", "%b%n", "%i%hhn", "%i%lln", "%*i%n", "%i %i",
        "%i%i", "%b %i %x", "%*i %i", "%i,%b;%s", "%3c%i", "%[0-9]%i", "%[^b]%b", "%[]0-9]%i",
        "%i%%%i", "%i %% %b", "x%i", " %i", "%i %n%b", "%2$i %1$b", "%1$b %2$n", "%i%", "%",
        "%5s%i", "%d%b%u", "%lf%i", "%i abc %i", "%ib", "%i%c", "%i %i %i %i %i", "%b,%b", "%*d %b",
        "%'i", "%Ii", "%mi", "%n%i", " %n", "%n", "abc%n", "%i%1s%i", "%i b%i", "%i0b%i",
    };
    struct buffers glibc_out, compat_out;
    for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
        for (int i = 0; i < input_count; i++) {
            const char *format = formats[f], *input = inputs[i];
            errno = 4242;
            int glibc_result = scan(1, input, format, &glibc_out);
            int glibc_errno = errno;
            errno = 4242;
            int compat_result = scan(0, input, format, &compat_out);
            int compat_errno = errno;
            int same_bytes = memcmp(&glibc_out, &compat_out, sizeof glibc_out) == 0;
            /* errno is compared for formats that are one conversion alone (ERANGE on overflow,
               as strtol), except that glibc's sscanf can reset errno to 0 when it meets the end
               of the input (C forbids a library function to set errno to 0; the compat one leaves
               it alone). When the format goes on after a conversion, glibc may put back, at the
               end of the input, an errno saved before that conversion's ERANGE: an artefact of
               its implementation that C leaves open. */
            int same_errno = !conversion_alone(format) || glibc_errno == compat_errno
                || (glibc_errno == 0 && compat_errno == 4242);
            check(glibc_result == compat_result && same_bytes && same_errno,
                  "sscanf(\"%s\", \"%s\"): glibc %d errno %d, compat %d errno %d%s", input, format, glibc_result,
                  glibc_errno, compat_result, compat_errno, same_bytes ? "" : ", stored values differ");
        }
    }
}

/* ---- strlcpy, strlcat --------------------------------------------------------------------- */

static void test_strl(void)
{
    static const char *sources[] = {"", "a", "hello", "exactly8", "a string that is longer than the others, at 60 characters..."};
    static const char *starts[] = {"", "ab", "1234567", "12345678901", NULL /* no NUL within size */};
    static const size_t sizes[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 20, 60, 61, 62, 100};
    char glibc_buffer[128], compat_buffer[128];
    for (size_t s = 0; s < sizeof sources / sizeof sources[0]; s++) {
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            const char *source = sources[s];
            size_t size = sizes[z];
            memset(glibc_buffer, 0x5a, sizeof glibc_buffer);
            memset(compat_buffer, 0x5a, sizeof compat_buffer);
            size_t glibc_result = strlcpy(glibc_buffer, source, size);
            size_t compat_result = egw_compat_strlcpy(compat_buffer, source, size);
            check(glibc_result == compat_result && memcmp(glibc_buffer, compat_buffer, sizeof glibc_buffer) == 0,
                  "strlcpy(\"%s\", %zu): glibc %zu, compat %zu%s", source, size, glibc_result, compat_result,
                  memcmp(glibc_buffer, compat_buffer, sizeof glibc_buffer) ? ", buffers differ" : "");
            for (size_t t = 0; t < sizeof starts / sizeof starts[0]; t++) {
                memset(glibc_buffer, 0x5a, sizeof glibc_buffer);
                if (starts[t] != NULL)
                    strcpy(glibc_buffer, starts[t]);
                else
                    glibc_buffer[sizeof glibc_buffer - 1] = '\0'; /* 127 'Z's: no NUL within any size tried */
                memcpy(compat_buffer, glibc_buffer, sizeof glibc_buffer);
                glibc_result = strlcat(glibc_buffer, source, size);
                compat_result = egw_compat_strlcat(compat_buffer, source, size);
                check(glibc_result == compat_result && memcmp(glibc_buffer, compat_buffer, sizeof glibc_buffer) == 0,
                      "strlcat(\"%s\" + \"%s\", %zu): glibc %zu, compat %zu%s", starts[t] ? starts[t] : "(unterminated)",
                      source, size, glibc_result, compat_result,
                      memcmp(glibc_buffer, compat_buffer, sizeof glibc_buffer) ? ", buffers differ" : "");
            }
        }
    }
}

int main(void)
{
    make_inputs();
    test_strto();
    test_sscanf();
    test_strl();
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
