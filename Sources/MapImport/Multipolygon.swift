// Multipolygon assembly: being written.
