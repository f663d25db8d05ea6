/*
 * SPDX-License-Identifier: Apache-2.0 (as the rest of edge-gateway)
 *
 * The six glibc 2.38 functions that Debian sid's prebuilt static Swift runtime calls and that
 * Debian bookworm's glibc 2.36 (the oldest Raspberry Pi OS) does not have, so that the arm64
 * gateway linked against bookworm runs on bookworm and on trixie. scripts/arm64/glibc-gap lists
 * what the runtime needs; the SDK's toolset.json adds this file's object to every link.
 *
 *   __isoc23_strtol, __isoc23_strtoll, __isoc23_strtoul, __isoc23_sscanf
 *       What C23 headers turn strtol, strtoll, strtoul and sscanf into. C23 changed one thing:
 *       binary integers. With base 0 or 2, "0b"/"0B" followed by a binary digit is a prefix (as
 *       "0x" is for hexadecimal), and scanf gained %b and reads such a prefix in %i. Input
 *       without that form goes to the older functions unchanged; the binary form is read here.
 *   strlcpy, strlcat
 *       The BSD functions glibc 2.38 adopted: copy or append into a buffer of the given size,
 *       always NUL-terminated when size > 0, returning the length they tried to create.
 *
 * Written for this project from the C23 and POSIX specifications and the behaviour of glibc 2.43
 * measured by glibc-compat-test.c, which compares these with glibc's own on x86-64. Built with
 * -DEGW_COMPAT_PREFIX for that test, the functions are named egw_compat_* instead.
 *
 * The definitions are hidden: they satisfy the static runtime's references inside the binary
 * without being exported, so on trixie the shared libraries still get glibc's own.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef EGW_COMPAT_PREFIX
#define EGW_COMPAT(name) egw_compat_##name
#define EGW_VISIBLE
#else
#define EGW_COMPAT(name) name
#define EGW_VISIBLE __attribute__((visibility("hidden")))
#endif

/* The pre-C23 functions, named by their symbols: headers of glibc >= 2.38 (the test builds
   against them) would otherwise turn a call to strtol into one to __isoc23_strtol. */
extern long egw_old_strtol(const char *, char **, int) __asm__("strtol");
extern long long egw_old_strtoll(const char *, char **, int) __asm__("strtoll");
extern unsigned long egw_old_strtoul(const char *, char **, int) __asm__("strtoul");
extern int egw_old_sscanf(const char *, const char *, ...) __asm__("__isoc99_sscanf");
extern int egw_old_vsscanf(const char *, const char *, va_list) __asm__("__isoc99_vsscanf");

EGW_VISIBLE long EGW_COMPAT(__isoc23_strtol)(const char *, char **, int);
EGW_VISIBLE long long EGW_COMPAT(__isoc23_strtoll)(const char *, char **, int);
EGW_VISIBLE unsigned long EGW_COMPAT(__isoc23_strtoul)(const char *, char **, int);
EGW_VISIBLE int EGW_COMPAT(__isoc23_sscanf)(const char *, const char *, ...);
EGW_VISIBLE size_t EGW_COMPAT(strlcpy)(char *, const char *, size_t);
EGW_VISIBLE size_t EGW_COMPAT(strlcat)(char *, const char *, size_t);

/* ---- Binary integers ---------------------------------------------------------------------- */

/* The value of binary digits read until a non-digit or `limit` characters (-1: no limit).
   Sets *overflow when it exceeds unsigned long long, *end after the last digit. */
static unsigned long long binary_value(const char *digits, long limit, const char **end, int *overflow)
{
    unsigned long long value = 0;
    *overflow = 0;
    while (limit != 0 && (*digits == '0' || *digits == '1')) {
        if (value > ULLONG_MAX >> 1)
            *overflow = 1;
        value = value << 1 | (unsigned long long)(*digits - '0');
        digits++;
        if (limit > 0)
            limit--;
    }
    *end = digits;
    return value;
}

/* What strtol-like functions return for a magnitude, a sign and the type's range: the value,
   or the nearest bound with errno = ERANGE when it does not fit (strtoul's rule for unsigned
   types: negative values wrap, only a magnitude beyond the type's maximum is out of range). */
static long long signed_result(unsigned long long magnitude, int overflow, int negative, long long min, long long max)
{
    unsigned long long limit = negative ? (unsigned long long)-(min + 1) + 1 : (unsigned long long)max;
    if (overflow || magnitude > limit) {
        errno = ERANGE;
        return negative ? min : max;
    }
    if (negative)
        return magnitude == 0 ? 0 : -(long long)(magnitude - 1) - 1;
    return (long long)magnitude;
}

static unsigned long long unsigned_result(unsigned long long magnitude, int overflow, int negative, unsigned long long max)
{
    if (overflow || magnitude > max) {
        errno = ERANGE;
        return max;
    }
    return negative ? (0 - magnitude) & max : magnitude;
}

/* For base 0 or 2: if `text` is, after white space and a sign, "0b" or "0B" and a binary
   digit, the first digit (and *negative); otherwise NULL, and the older function gives the
   C23 answer already ("0b2" is the number 0 followed by "b2" in both). */
static const char *binary_form(const char *text, int base, int *negative)
{
    if (base != 0 && base != 2)
        return NULL;
    while (isspace((unsigned char)*text))
        text++;
    *negative = *text == '-';
    if (*text == '+' || *text == '-')
        text++;
    if (text[0] == '0' && (text[1] == 'b' || text[1] == 'B') && (text[2] == '0' || text[2] == '1'))
        return text + 2;
    return NULL;
}

long EGW_COMPAT(__isoc23_strtol)(const char *text, char **end, int base)
{
    int negative, overflow;
    const char *digits = binary_form(text, base, &negative), *after;
    if (digits == NULL)
        return egw_old_strtol(text, end, base);
    unsigned long long magnitude = binary_value(digits, -1, &after, &overflow);
    if (end != NULL)
        *end = (char *)after;
    return (long)signed_result(magnitude, overflow, negative, LONG_MIN, LONG_MAX);
}

long long EGW_COMPAT(__isoc23_strtoll)(const char *text, char **end, int base)
{
    int negative, overflow;
    const char *digits = binary_form(text, base, &negative), *after;
    if (digits == NULL)
        return egw_old_strtoll(text, end, base);
    unsigned long long magnitude = binary_value(digits, -1, &after, &overflow);
    if (end != NULL)
        *end = (char *)after;
    return signed_result(magnitude, overflow, negative, LLONG_MIN, LLONG_MAX);
}

unsigned long EGW_COMPAT(__isoc23_strtoul)(const char *text, char **end, int base)
{
    int negative, overflow;
    const char *digits = binary_form(text, base, &negative), *after;
    if (digits == NULL)
        return egw_old_strtoul(text, end, base);
    unsigned long long magnitude = binary_value(digits, -1, &after, &overflow);
    if (end != NULL)
        *end = (char *)after;
    return (unsigned long)unsigned_result(magnitude, overflow, negative, ULONG_MAX);
}

/* ---- sscanf --------------------------------------------------------------------------------
   A format without %i or %b reads the same in C23 and goes to __isoc99_vsscanf whole. Otherwise
   the format is taken one directive at a time: %i on a binary item and every %b are read here,
   %n is stored here, and each other directive (a run of ordinary characters and white space, or
   one conversion) goes to __isoc99_sscanf on the rest of the input with a %n added to learn how
   far it read. A scanf call keeps no state between directives but the input position and the
   count of assignments, so the directives read alone read as they would together. */

/* One conversion specification: "%[N$][*'I][width][hh|h|l|ll|L|q|j|z|t|m…]conversion". */
struct conversion {
    const char *body;  /* after "%" and any "N$": what a delegated directive repeats */
    const char *end;   /* just past the specification */
    int position;      /* N of "%N$", 0 without */
    int suppressed;    /* '*': read, not assigned */
    long width;        /* -1: none */
    char size;         /* 'H' hh, 'h', 0 (int), 'l', 'q' (ll, L, q), 'j', 'z', 't' */
    char kind;         /* the conversion character; '[' for a scanset; 0 if the format ends */
};

static const char *read_number(const char *text, long *value)
{
    *value = 0;
    while (*text >= '0' && *text <= '9') {
        if (*value < (LONG_MAX - 9) / 10)
            *value = *value * 10 + (*text - '0');
        text++;
    }
    return text;
}

/* Parses the specification starting at the '%' of `percent`. */
static struct conversion parse_conversion(const char *percent)
{
    struct conversion spec = {.body = percent + 1, .width = -1};
    const char *text = percent + 1;
    long number;
    const char *after = read_number(text, &number);
    if (after != text && *after == '$') {
        spec.position = (int)number;
        text = spec.body = after + 1;
    }
    for (; *text == '*' || *text == '\'' || *text == 'I'; text++)
        spec.suppressed |= *text == '*';
    after = read_number(text, &number);
    if (after != text && number > 0)
        spec.width = number; /* a width of 0 means none, as in glibc */
    text = after;
    for (; *text != '\0' && strchr("hlLqjztm", *text) != NULL; text++) {
        switch (*text) {
        case 'h': spec.size = spec.size == 'h' ? 'H' : 'h'; break;
        case 'l': spec.size = spec.size == 'l' ? 'q' : 'l'; break;
        case 'L': case 'q': spec.size = 'q'; break;
        case 'j': case 'z': case 't': spec.size = *text; break;
        default: break; /* 'm': allocation, only for conversions handed on */
        }
    }
    spec.kind = *text;
    if (*text == '[') {
        text++;
        if (*text == '^')
            text++;
        if (*text == ']')
            text++;
        while (*text != '\0' && *text != ']')
            text++;
    }
    spec.end = *text != '\0' ? text + 1 : text;
    return spec;
}

static int is_binary_conversion(const struct conversion *spec) { return spec->kind == 'b' || spec->kind == 'i'; }

static int needs_c23(const char *format)
{
    while ((format = strchr(format, '%')) != NULL) {
        struct conversion spec = parse_conversion(format);
        if (is_binary_conversion(&spec))
            return 1;
        format = spec.end;
        if (spec.kind == '\0')
            break;
    }
    return 0;
}

/* Whether %i, at `input`, reads a binary item: white space (which does not count against the
   width), a sign, "0" and "b"/"B", all within the width. */
static int binary_item_ahead(const char *input, long width)
{
    while (isspace((unsigned char)*input))
        input++;
    if (width != 0 && (*input == '+' || *input == '-')) {
        input++;
        width--;
    }
    if (width == 0 || *input != '0')
        return 0;
    input++;
    width--;
    return width != 0 && (*input == 'b' || *input == 'B');
}

/* Stores `value` (already reduced to the conversion's range) in the argument's type. */
static void store_integer(void *argument, char size, unsigned long long value)
{
    switch (size) {
    case 'H': *(unsigned char *)argument = (unsigned char)value; break;
    case 'h': *(unsigned short *)argument = (unsigned short)value; break;
    case 'l': *(unsigned long *)argument = (unsigned long)value; break;
    case 'q': *(unsigned long long *)argument = value; break;
    case 'j': *(uintmax_t *)argument = (uintmax_t)value; break;
    case 'z': *(size_t *)argument = (size_t)value; break;
    case 't': *(ptrdiff_t *)argument = (ptrdiff_t)value; break;
    default: *(unsigned int *)argument = (unsigned int)value; break;
    }
}

/* Reads a binary integer for %b (or %i with a "0b" prefix ahead) at *input. Returns 1 and moves
   *input past it, 0 on a matching failure, EOF if the input ends before the item. The item is
   as strtol/strtoul (base 2) would read it within the width: sign, optional "0b", at least one
   digit; its value is reduced as strtol does for %i (signed) and strtoul for %b (unsigned). */
static int scan_binary(const char **input, const struct conversion *spec, void *argument)
{
    const char *text = *input;
    long width = spec->width;
    while (isspace((unsigned char)*text))
        text++;
    if (*text == '\0')
        return EOF;
    int negative = *text == '-';
    if (width != 0 && (*text == '+' || *text == '-')) {
        text++;
        width--;
    }
    int digits = 0;
    if (width != 0 && *text == '0') {
        /* "0" is a digit, unless "b" follows: then both are the prefix. */
        text++;
        width--;
        digits = 1;
        if (width != 0 && (*text == 'b' || *text == 'B')) {
            text++;
            width--;
            digits = 0;
        }
    }
    const char *end;
    int overflow;
    unsigned long long magnitude = binary_value(text, width, &end, &overflow);
    digits += (int)(end - text);
    if (digits == 0)
        return 0;
    *input = end;
    /* glibc reads %ll, %L, %q (and %j where intmax_t is wider than long) with strtoll; it does
       so for a suppressed conversion too, which then also sets errno = ERANGE on overflow. */
    int wide = spec->size == 'q' || (spec->size == 'j' && sizeof(intmax_t) > sizeof(long));
    unsigned long long value;
    if (spec->kind == 'i')
        value = (unsigned long long)signed_result(magnitude, overflow, negative, wide ? LLONG_MIN : LONG_MIN,
                                                  wide ? LLONG_MAX : LONG_MAX);
    else
        value = unsigned_result(magnitude, overflow, negative, wide ? ULLONG_MAX : ULONG_MAX);
    if (argument != NULL)
        store_integer(argument, spec->size, value);
    return 1;
}

/* The argument for a conversion: the next one, or the N-th for "%N$" (every scanf argument is
   a pointer, so the N-th is found by reading N pointers from the start). */
static void *argument_for(const struct conversion *spec, va_list *next, va_list all)
{
    if (spec->position <= 0)
        return va_arg(*next, void *);
    va_list walk;
    va_copy(walk, all);
    void *argument = NULL;
    for (int i = 0; i < spec->position; i++)
        argument = va_arg(walk, void *);
    va_end(walk);
    return argument;
}

/* Hands `length` bytes of directive text to __isoc99_sscanf at `input`, with the argument (if
   any). Returns how many characters it read, or -1 if it failed, with *result what it
   returned. */
static long hand_on(const char *input, const char *directive, size_t length, void *argument, int *result)
{
    char small[128];
    char *format = length + 3 <= sizeof small ? small : malloc(length + 3);
    if (format == NULL) {
        *result = EOF;
        return -1;
    }
    memcpy(format, directive, length);
    memcpy(format + length, "%n", 3);
    int consumed = -1, saved_errno = errno;
    *result = argument != NULL ? egw_old_sscanf(input, format, argument, &consumed) : egw_old_sscanf(input, format, &consumed);
    /* glibc's scanf may leave errno at 0 when it meets the end of the input (it restores a value
       saved before any error); C forbids a library function to set errno to 0, and in one call
       of the whole format glibc would not have done it here: keep the caller's errno. */
    if (errno == 0)
        errno = saved_errno;
    if (format != small)
        free(format);
    return consumed;
}

static int c23_vsscanf(const char *input, const char *format, va_list arguments)
{
    if (!needs_c23(format))
        return egw_old_vsscanf(input, format, arguments);
    va_list next;
    va_copy(next, arguments);
    const char *at = input;
    int assigned = 0, result;
    while (*format != '\0') {
        if (*format != '%' || format[1] == '%') {
            /* Ordinary characters and white space up to the next conversion ("%%" included). */
            const char *end = format;
            while (*end != '\0' && (*end != '%' || end[1] == '%'))
                end += *end == '%' ? 2 : 1;
            long consumed = hand_on(at, format, (size_t)(end - format), NULL, &result);
            if (consumed < 0)
                goto stop;
            at += consumed;
            format = end;
            continue;
        }
        struct conversion spec = parse_conversion(format);
        if (spec.kind == '\0') {
            /* A format ending in a bare '%': a matching failure, as in glibc. */
            result = 0;
            goto stop;
        }
        void *argument = spec.suppressed ? NULL : argument_for(&spec, &next, arguments);
        if (spec.kind == 'n') {
            if (argument != NULL)
                store_integer(argument, spec.size, (unsigned long long)(at - input));
        } else if (spec.kind == 'b' || (spec.kind == 'i' && binary_item_ahead(at, spec.width))) {
            result = scan_binary(&at, &spec, argument);
            if (result != 1)
                goto stop;
            assigned += argument != NULL;
        } else {
            /* "%" and the rest of the specification, without its "N$". */
            size_t length = (size_t)(spec.end - spec.body);
            char small[128];
            char *directive = length + 2 <= sizeof small ? small : malloc(length + 2);
            if (directive == NULL) {
                result = EOF;
                goto stop;
            }
            directive[0] = '%';
            memcpy(directive + 1, spec.body, length);
            long consumed = hand_on(at, directive, length + 1, argument, &result);
            if (directive != small)
                free(directive);
            if (consumed < 0)
                goto stop;
            at += consumed;
            assigned += argument != NULL;
        }
        format = spec.end;
    }
    va_end(next);
    return assigned;
stop:
    va_end(next);
    /* As scanf: EOF for an input failure before the first assignment, else the count. */
    return result == EOF && assigned == 0 ? EOF : assigned;
}

int EGW_COMPAT(__isoc23_sscanf)(const char *input, const char *format, ...)
{
    va_list arguments;
    va_start(arguments, format);
    int result = c23_vsscanf(input, format, arguments);
    va_end(arguments);
    return result;
}

/* ---- strlcpy, strlcat ------------------------------------------------------------------- */

size_t EGW_COMPAT(strlcpy)(char *destination, const char *source, size_t size)
{
    size_t length = strlen(source);
    if (size > 0) {
        size_t copied = length < size - 1 ? length : size - 1;
        memcpy(destination, source, copied);
        destination[copied] = '\0';
    }
    return length;
}

size_t EGW_COMPAT(strlcat)(char *destination, const char *source, size_t size)
{
    /* A destination with no NUL within size is left alone; the result still says how long the
       whole string would have been (size + strlen(source)), as glibc and the BSDs do. */
    size_t used = strnlen(destination, size);
    if (used == size)
        return size + strlen(source);
    return used + EGW_COMPAT(strlcpy)(destination + used, source, size - used);
}
