/* tagd-entry.h: a tag entry driven by tagd.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/**
 * TagdTransform:
 * @TAGD_TRANSFORM_NONE: tags keep the spelling typed
 * @TAGD_TRANSFORM_LOWERCASE: tags are lowercased
 * @TAGD_TRANSFORM_UPPERCASE: tags are uppercased
 *
 * How tagd rewrites a candidate before it becomes a tag (the field option `transform`).
 */
typedef enum {
  TAGD_TRANSFORM_NONE,
  TAGD_TRANSFORM_LOWERCASE,
  TAGD_TRANSFORM_UPPERCASE,
} TagdTransform;

#define TAGD_TYPE_ENTRY (tagd_entry_get_type ())
G_DECLARE_FINAL_TYPE (TagdEntry, tagd_entry, TAGD, ENTRY, GtkWidget)

GtkWidget          *tagd_entry_new                (void);
const char * const *tagd_entry_get_tags           (TagdEntry          *self);
void                tagd_entry_set_tags           (TagdEntry          *self,
                                                   const char * const *tags);
void                tagd_entry_add_tags           (TagdEntry          *self,
                                                   const char * const *tags);
void                tagd_entry_remove_tag         (TagdEntry          *self,
                                                   const char         *tag);
const char         *tagd_entry_get_draft          (TagdEntry          *self);
const char         *tagd_entry_get_prompt         (TagdEntry          *self);
void                tagd_entry_set_prompt         (TagdEntry          *self,
                                                   const char         *prompt);
const char * const *tagd_entry_get_separators     (TagdEntry          *self);
void                tagd_entry_set_separators     (TagdEntry          *self,
                                                   const char * const *separators);
int                 tagd_entry_get_max_tags       (TagdEntry          *self);
void                tagd_entry_set_max_tags       (TagdEntry          *self,
                                                   int                 max_tags);
int                 tagd_entry_get_max_tag_length (TagdEntry          *self);
void                tagd_entry_set_max_tag_length (TagdEntry          *self,
                                                   int                 max_tag_length);
gboolean            tagd_entry_get_case_sensitive (TagdEntry          *self);
void                tagd_entry_set_case_sensitive (TagdEntry          *self,
                                                   gboolean            case_sensitive);
TagdTransform       tagd_entry_get_transform      (TagdEntry          *self);
void                tagd_entry_set_transform      (TagdEntry          *self,
                                                   TagdTransform       transform);
const char         *tagd_entry_get_announcement   (TagdEntry          *self);

G_END_DECLS
