/* SPDX-License-Identifier: MIT */
/* bench/macro: the alloc_hooks() macros dropped before a C library header is read. */
#undef malloc
#undef calloc
#undef realloc
#undef reallocarray
#undef valloc
#undef posix_memalign
#undef aligned_alloc
#undef realpath
#undef canonicalize_file_name
#undef memalign
#undef pvalloc
#undef strdup
#undef strndup
#undef wcsdup
#undef asprintf
#undef vasprintf
#undef getline
#undef getdelim
#undef open_memstream
#undef tempnam
#undef getcwd
#undef get_current_dir_name
