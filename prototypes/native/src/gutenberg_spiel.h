// The entry point of the glue that the Cython module calls (see _native.pyx). It is
// seen before Cython's struct definitions, hence the untyped pointer.
#ifndef GUTENBERG_SPIEL_H_
#define GUTENBERG_SPIEL_H_

// Copy `cat` (a Catalogue) as the catalogue of the games loaded from now on.
void gn_glue_set_catalogue(const void* cat, int catalogue_id);

#endif  // GUTENBERG_SPIEL_H_
