// Mesa from Debian (libegl-dev, libgles-dev, libegl-mesa0, libgl1-mesa-dri): OpenGL ES 3 drawn
// off-screen on the CPU (EGL's surfaceless platform with llvmpipe), for Look Around scenes.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
