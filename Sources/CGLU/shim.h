// GLU's polygon tessellator from Debian (libglu1-mesa-dev): the triangles of roofs and ground
// areas with holes, for Look Around scenes. It needs no GL context.
#include <GL/glu.h>
