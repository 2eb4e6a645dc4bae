#ifndef HOTTASK_CNCURSESW_SHIM_H
#define HOTTASK_CNCURSESW_SHIM_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1 /* without it get_wch, mvaddwstr and cchar_t are missing */
#endif
#include <locale.h>
#include <wchar.h>
#include <ncursesw/curses.h>

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

static const mmask_t HC_WHEEL_UP = BUTTON4_PRESSED;
#ifdef BUTTON5_PRESSED
static const mmask_t HC_WHEEL_DOWN = BUTTON5_PRESSED;
#else
static const mmask_t HC_WHEEL_DOWN = 0;
#endif

static inline int hc_color_pair(short pair) { return (int)COLOR_PAIR(pair); }

#endif
