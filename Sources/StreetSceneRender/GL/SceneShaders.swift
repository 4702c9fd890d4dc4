// The GLSL ES 3.00 programs SceneRasterizer draws with: the sky behind everything, then the scene's
// triangles (one program for every material, chosen per vertex, so a mesh is one draw call).
//
// Lighting is computed in linear light: vertex and lighting colours are sRGB, converted with a
// power of 2 (squared in, square root out: close enough to the sRGB curve for shading, and far
// cheaper than `pow` for llvmpipe, which runs these for every pixel of every triangle on the CPU;
// the other powers are written as multiplications for the same reason). Nothing depends on time
// or on a random source, so a frame is the same bytes every time.

enum SceneShaders {
    /// The sky's colour in a direction, shared by the sky and the scene (fog, reflections), so far
    /// geometry fades into exactly the sky behind it.
    static let skyFunction = """
        uniform vec3 uSunDirection;
        uniform vec3 uSunGlow;      // linear sun colour × how far it is above the horizon (0 … 1)
        uniform vec3 uZenith;       // linear
        uniform vec3 uHorizon;      // linear; also the fog's colour below the horizon

        vec3 skyColor(vec3 d, bool disc) {
            float up = clamp(d.z, 0.0, 1.0);
            // The square root keeps a pale band near the horizon and the deep colour overhead.
            vec3 c = mix(uHorizon, uZenith, sqrt(up));
            float s = max(dot(d, uSunDirection), 0.0);
            float s2 = s * s, s6 = s2 * s2 * s2, s12 = s6 * s6, s24 = s12 * s12;
            c += uSunGlow * (0.30 * s6 + 0.55 * s24 * s24);
            if (disc) {
                // A disc of about 0.6° radius (the real sun's 0.27° would be a pixel or two),
                // its edge smoothed over 0.2°.
                c += uSunGlow * 12.0 * smoothstep(0.99985, 0.99995, s);
            }
            return c;
        }

        // Far geometry fades into the sky at its own bearing, at the horizon or higher.
        vec3 fogColorAlong(vec3 view) {
            return skyColor(normalize(vec3(view.xy, max(view.z, 0.0)) + vec3(0.0, 0.0, 1e-4)), false);
        }

        vec3 toLinear(vec3 c) { return c * c; }
        vec3 toSRGB(vec3 c) { return sqrt(clamp(c, 0.0, 1.0)); }
        """

    static let skyVertex = """
        #version 300 es
        // One triangle covering the screen, from the vertex index alone (no buffers).
        out vec2 vNdc;
        void main() {
            vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
            vNdc = p;
            gl_Position = vec4(p, 0.0, 1.0);
        }
        """

    static let skyFragment = """
        #version 300 es
        precision highp float;
        precision highp int;
        \(skyFunction)
        uniform vec3 uForward;
        uniform vec3 uRight;
        uniform vec3 uUp;
        uniform vec2 uTangents;     // tan(half field of view), horizontally and vertically
        in vec2 vNdc;
        out vec4 fragColor;
        void main() {
            vec3 d = normalize(uForward + vNdc.x * uTangents.x * uRight + vNdc.y * uTangents.y * uUp);
            vec3 c = toSRGB(skyColor(d, true));
            // Half a step of ordered dither hides the 8-bit bands of a smooth gradient; it depends
            // only on the pixel, so frames stay identical.
            uvec2 p = uvec2(gl_FragCoord.xy) & 3u;
            uint xy = p.x ^ p.y;   // the 4 × 4 Bayer matrix by bit interleaving
            uint index = ((xy & 1u) << 3u) | ((p.y & 1u) << 2u) | (xy & 2u) | ((p.y & 2u) >> 1u);
            float bayer = (float(index) + 0.5) / 16.0 - 0.5;
            fragColor = vec4(c + bayer / 255.0, 1.0);
        }
        """

    /// Sunlight, ambient and the hemispheric sky term on a linear albedo.
    static let lightFunction = """
        uniform vec3 uSunLight;     // linear sun colour × intensity
        uniform vec3 uAmbient;      // linear ambient colour × intensity
        uniform vec3 uSkyLight;     // linear zenith colour × sky light intensity
        uniform vec3 uGroundLight;  // linear ground colour × sky light intensity

        vec3 lit(vec3 albedo, vec3 n) {
            float sun = max(dot(n, uSunDirection), 0.0);
            vec3 hemisphere = mix(uGroundLight, uSkyLight, 0.5 + 0.5 * n.z);
            return albedo * (uSunLight * sun + uAmbient + hemisphere);
        }
        """

    /// Lighting and the fog's colour are computed per vertex: a face's normal is the same at its
    /// corners, so for flat faces this is exact, and it leaves the per-pixel work (whose cost grew
    /// about threefold with 4× multisampling on llvmpipe here) to what really varies across a face.
    static let sceneVertex = """
        #version 300 es
        precision highp float;
        precision highp int;
        \(skyFunction)
        \(lightFunction)
        layout(location = 0) in vec3 aPosition;
        layout(location = 1) in vec3 aNormal;
        layout(location = 2) in vec4 aColor;
        layout(location = 3) in vec2 aTexCoord;
        uniform mat4 uViewProjection;   // takes positions relative to the eye
        uniform vec3 uEye;
        out vec3 vRelative;
        out vec3 vNormal;       // unit, turned toward the eye
        out vec4 vColor;
        out vec2 vTexCoord;
        out vec3 vLit;          // linear, lit vertex colour
        out vec3 vFog;          // linear fog colour along the view
        out vec4 vReflection;   // linear sky colour mirrored by the surface, and how much glass shows it
        void main() {
            vRelative = aPosition - uEye;
            vec3 view = vRelative / max(length(vRelative), 1e-4);
            // Meshes may wind either way and culling is off: light the side that faces the eye
            // (all corners of a flat face agree on which side that is).
            vec3 n = length(aNormal) > 1e-6 ? normalize(aNormal) : -view;
            if (dot(n, view) > 0.0) { n = -n; }
            vNormal = n;
            vColor = aColor;
            vTexCoord = aTexCoord;
            vLit = lit(toLinear(aColor.rgb), n);
            vFog = fogColorAlong(view);
            // For windows: interpolated, the mirrored sky and Fresnel's weight change smoothly
            // across a wall, and per pixel they were half a facade's cost.
            float m = 1.0 - clamp(dot(-view, n), 0.0, 1.0), m2 = m * m;
            vReflection = vec4(skyColor(reflect(view, n), false), 0.05 + 0.75 * (0.04 + 0.96 * m2 * m2 * m));
            gl_Position = uViewProjection * vec4(vRelative, 1.0);
        }
        """

    /// The opaque triangles' fragment shader for one material (a ``SceneMaterial`` raw value).
    /// Each material gets its own program: one shader branching on the material paid for windows
    /// and reflections on every surface (measured: plain walls cost as much as facades), as
    /// llvmpipe evaluates branches for whole groups of pixels.
    /// What both scene fragment shaders (materials and labels) read from `sceneVertex`, and their fog
    /// uniform and output: one list, so that the two cannot drift from the vertex shader apart.
    static let sceneFragmentInputs = """
        uniform vec2 uFog;          // start, end in metres
        in vec3 vRelative;
        in vec3 vNormal;
        in vec4 vColor;
        in vec2 vTexCoord;
        in vec3 vLit;
        in vec3 vFog;
        in vec4 vReflection;
        out vec4 fragColor;
        """

    static func sceneFragment(material: Int) -> String { """
        #version 300 es
        precision highp float;
        precision highp int;
        const int MATERIAL = \(material);
        \(skyFunction)
        \(lightFunction)
        \(sceneFragmentInputs)

        // A 32-bit integer hash (PCG's output permutation): the same windows lit on every frame.
        uint hash(uint x) {
            uint state = x * 747796405u + 2891336453u;
            uint word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
            return (word >> 22u) ^ word;
        }
        // Two independent numbers in 0 … 1 for a cell, from one hash's two halves.
        vec2 random2(ivec2 cell, uint seed) {
            uint h = hash(uint(cell.x) ^ hash(uint(cell.y) ^ hash(seed)));
            return vec2(float(h & 0xFFFFu), float(h >> 16u)) / 65535.0;
        }

        // 1 inside [a, b], 0 outside, with an edge one pixel (w) wide so windows do not alias.
        float band(float x, float a, float b, float w) {
            return clamp((x - a) / w + 0.5, 0.0, 1.0) * clamp((b - x) / w + 0.5, 0.0, 1.0);
        }

        float fresnel(vec3 view, vec3 n) {
            float m = 1.0 - clamp(dot(-view, n), 0.0, 1.0), m2 = m * m;
            return 0.04 + 0.96 * m2 * m2 * m;
        }

        // Windows on a wall. u is metres along the wall, v metres above the ground; the vertex
        // alpha gives the level height (255: 3 m, 1 … 254: decimetres, 0: a wall without windows).
        vec3 facade(vec3 wall, vec3 n, vec3 view) {
            int code = int(vColor.a * 255.0 + 0.5);
            if (code == 0 || vTexCoord.y < 0.0) { return wall; }
            float levelHeight = code == 255 ? 3.0 : float(code) * 0.1;
            vec2 cell = vec2(vTexCoord.x / 3.0, vTexCoord.y / levelHeight);   // a bay is 3 m wide
            vec2 id = floor(cell);
            vec2 f = cell - id;
            vec2 w = max(fwidth(cell), vec2(1e-4));
            // Seeded by the wall's colour, so neighbouring buildings differ but a building is stable.
            uint seed = uint(dot(floor(vColor.rgb * 255.0 + 0.5), vec3(1.0, 256.0, 65536.0)));
            vec2 picks = random2(ivec2(id), seed);
            float pick = picks.x;
            // Upper levels: a window 1.2 m wide, from 30% to 77% of the level (0.9 … 2.3 m at 3 m).
            vec4 box = vec4(0.3, 0.7, 0.3, 0.77);
            bool door = false;
            if (id.y < 0.5) {
                // The ground level: shop windows in about half the bays, doors in some.
                if (pick < 0.5) { box = vec4(0.07, 0.93, 0.05, 0.80); }
                else if (pick < 0.7) { box = vec4(0.36, 0.64, 0.0, 0.72); door = true; }
            }
            float mask = band(f.x, box.x, box.y, w.x) * band(f.y, box.z, box.w, w.y);
            // A darker reveal around each opening: the window is set back into the wall.
            float reveal = band(f.x, box.x - 0.03, box.y + 0.03, w.x) * band(f.y, box.z - 0.04, box.w, w.y);
            // Windows a few pixels across would shimmer: fade them into their average over the wall.
            float far = smoothstep(0.12, 0.35, max(w.x, w.y));
            mask = mix(mask, 0.19, far);
            reveal = mix(reveal, 0.24, far);
            // Dark glass, some panes showing a lit or curtained room, with the sky reflected; a door
            // is a dark brown in the wall's own light (a select: cheaper than a branch on llvmpipe).
            float room = picks.y;
            vec3 inside = mix(vec3(0.015, 0.02, 0.025), vec3(0.10, 0.08, 0.06), room * room);
            vec3 glass = mix(inside, vReflection.rgb, vReflection.a);
            glass = door ? wall * vec3(0.14, 0.10, 0.07) : glass;
            vec3 shaded = wall * (1.0 - 0.35 * (reveal - mask * reveal));
            return mix(shaded, glass, mask);
        }

        void main() {
            float distance = length(vRelative);
            float fog = smoothstep(uFog.x, uFog.y, distance);
            vec3 color = vLit;
            if (MATERIAL != 0) {
                vec3 view = vRelative / max(distance, 1e-4);
                vec3 n = normalize(vNormal);
                if (MATERIAL == 1) {
                    color = facade(color, n, view);
                } else if (MATERIAL == 3) {
                    // Glass and water: the sky mirrored by Fresnel's law, and the sun's highlight.
                    vec3 r = reflect(view, n);
                    color = mix(color, skyColor(r, false), clamp(0.1 + fresnel(view, n), 0.0, 1.0));
                    color += uSunLight * 3.0 * pow(max(dot(r, uSunDirection), 0.0), 400.0);
                }
            }
            fragColor = vec4(toSRGB(mix(color, vFog, fog)), 1.0);
        }
        """
    }

    /// Labels: a program of their own, because `discard` in a program stops llvmpipe from testing
    /// depth before shading, which the opaque pass relies on for speed.
    static let labelFragment = """
        #version 300 es
        precision highp float;
        precision highp int;
        \(skyFunction)
        uniform sampler2D uAtlas;   // premultiplied RGBA
        \(sceneFragmentInputs)
        void main() {
            // Unlit: the atlas's glyphs tinted by the vertex colour; premultiplied output for
            // ONE, ONE_MINUS_SRC_ALPHA blending.
            vec4 glyph = texture(uAtlas, vTexCoord);
            vec4 c = vec4(glyph.rgb * vColor.rgb, glyph.a) * vColor.a;
            if (c.a < 0.5 / 255.0) { discard; }
            c.rgb = mix(c.rgb, toSRGB(vFog) * c.a, smoothstep(uFog.x, uFog.y, length(vRelative)));
            fragColor = c;
        }
        """
}
