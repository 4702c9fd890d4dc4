// SDL2 from Debian (libsdl2-dev): the desktop window of MapWindow (`openmapkit view`).
// The program keeps its own main(): SDL must not rename it to SDL_main.
#define SDL_MAIN_HANDLED 1
#include <SDL2/SDL.h>
