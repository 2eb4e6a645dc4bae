#ifndef HOTTASK_CNCURSESW_SHIM_H
#define HOTTASK_CNCURSESW_SHIM_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1 /* without it get_wch, mvaddwstr and cchar_t are missing */
#endif
#include <locale.h>
#include <wchar.h>
#include <ncursesw/curses.h>
#include <ncursesw/term.h>

/* Globals and macros that Swift 6 cannot use directly. */
static inline WINDOW *hc_stdscr(void) { return stdscr; }
static inline int hc_lines(void) { return LINES; }
static inline int hc_cols(void) { return COLS; }
static inline int hc_colors(void) { return COLORS; }

static const attr_t HC_A_NORMAL = A_NORMAL;
static const attr_t HC_A_BOLD = A_BOLD;
static const attr_t HC_A_DIM = A_DIM;
static const attr_t HC_A_REVERSE = A_REVERSE;
static const attr_t HC_A_UNDERLINE = A_UNDERLINE;

static inline int hc_color_pair(short pair) { return (int)COLOR_PAIR(pair); }

/* 1 when $TERM names a terminal that can move the cursor (a terminfo entry with cup that is
   not generic or hardcopy). Reads the terminfo database only: nothing is written, and unlike
   initscr it never exits the process. */
static inline int hc_terminal_can_move_cursor(void) {
    int status = 0;
    if (setupterm(NULL, 1, &status) != OK) return 0;
    const char *cup = tigetstr("cup");
    int usable = cup != NULL && cup != (char *)-1 && tigetflag("gn") <= 0 && tigetflag("hc") <= 0;
    del_curterm(cur_term);
    return usable;
}

/* The C library's width of a code point in the current locale (what ncurses splits text by);
   glibc declares wcwidth only under _XOPEN_SOURCE. */
extern int wcwidth(wchar_t);
static inline int hc_wcwidth(wchar_t c) { return wcwidth(c); }

/* The terminal's cursor_address for row y, column x, or NULL when it has none. tiparm is
   variadic, which Swift cannot call. */
static inline const char *hc_cursor_address(int y, int x) {
    const char *cup = tigetstr("cup");
    if (cup == NULL || cup == (char *)-1) return NULL;
    return tiparm(cup, y, x);
}

/* 1 when the terminal has an alternate screen (smcup), which endwin leaves again. */
static inline int hc_has_alternate_screen(void) {
    const char *smcup = tigetstr("smcup");
    return smcup != NULL && smcup != (char *)-1 && smcup[0] != 0;
}

/* The terminal's size (TIOCGWINSZ): ioctl is variadic, which Swift cannot call. 0 on success. */
#include <sys/ioctl.h>
/* (Not `lines` and `columns`: term.h defines both as macros.) */
static inline int hc_window_size(int *height, int *width) {
    struct winsize size;
    if (ioctl(1, TIOCGWINSZ, &size) != 0 && ioctl(0, TIOCGWINSZ, &size) != 0) return -1;
    *height = size.ws_row;
    *width = size.ws_col;
    return 0;
}

/* newterm on the process's own terminal, as `type` (NULL: $TERM); NULL instead of exiting
   when it cannot. */
static inline SCREEN *hc_newterm(const char *type) { return newterm(type, stdout, stdin); }

#endif
