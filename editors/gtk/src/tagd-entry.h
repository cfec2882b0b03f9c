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

/**
 * TagdBackspaceMode:
 * @TAGD_BACKSPACE_MODE_REMOVE: Backspace on an empty text removes the last tag
 * @TAGD_BACKSPACE_MODE_SELECT: the first Backspace selects the last chip, the next removes it
 * @TAGD_BACKSPACE_MODE_EDIT: the last tag comes back into the text to be edited
 *
 * What Backspace does on an empty text (the field option `backspace`).
 */
typedef enum {
  TAGD_BACKSPACE_MODE_REMOVE,
  TAGD_BACKSPACE_MODE_SELECT,
  TAGD_BACKSPACE_MODE_EDIT,
} TagdBackspaceMode;

/**
 * TagdDropReason:
 * @TAGD_DROP_REASON_EMPTY: the candidate was empty
 * @TAGD_DROP_REASON_DUPLICATE: equal to a tag already there (or an earlier candidate)
 * @TAGD_DROP_REASON_TOO_LONG: longer than [property@Tagd.Entry:max-tag-length]
 * @TAGD_DROP_REASON_TOO_MANY: the entry already holds [property@Tagd.Entry:max-tags] tags
 * @TAGD_DROP_REASON_PATTERN: does not match [property@Tagd.Entry:pattern]
 * @TAGD_DROP_REASON_NOT_ALLOWED: not one of [property@Tagd.Entry:allow]
 * @TAGD_DROP_REASON_DENIED: one of [property@Tagd.Entry:deny]
 * @TAGD_DROP_REASON_OTHER: a reason this version of the library does not know
 *
 * Why tagd refused a candidate (`outcome.dropped[].reason`).
 */
typedef enum {
  TAGD_DROP_REASON_EMPTY,
  TAGD_DROP_REASON_DUPLICATE,
  TAGD_DROP_REASON_TOO_LONG,
  TAGD_DROP_REASON_TOO_MANY,
  TAGD_DROP_REASON_PATTERN,
  TAGD_DROP_REASON_NOT_ALLOWED,
  TAGD_DROP_REASON_DENIED,
  TAGD_DROP_REASON_OTHER,
} TagdDropReason;

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
void                tagd_entry_undo               (TagdEntry          *self);
void                tagd_entry_redo               (TagdEntry          *self);
const char         *tagd_entry_get_draft          (TagdEntry          *self);
int                 tagd_entry_get_selected       (TagdEntry          *self);
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
const char         *tagd_entry_get_pattern        (TagdEntry          *self);
void                tagd_entry_set_pattern        (TagdEntry          *self,
                                                   const char         *pattern);
const char * const *tagd_entry_get_allow          (TagdEntry          *self);
void                tagd_entry_set_allow          (TagdEntry          *self,
                                                   const char * const *allow);
const char * const *tagd_entry_get_deny           (TagdEntry          *self);
void                tagd_entry_set_deny           (TagdEntry          *self,
                                                   const char * const *deny);
const char * const *tagd_entry_get_suggestions    (TagdEntry          *self);
void                tagd_entry_set_suggestions    (TagdEntry          *self,
                                                   const char * const *suggestions);
TagdBackspaceMode   tagd_entry_get_backspace_mode (TagdEntry          *self);
void                tagd_entry_set_backspace_mode (TagdEntry          *self,
                                                   TagdBackspaceMode   mode);
gboolean            tagd_entry_get_commit_on_blur (TagdEntry          *self);
void                tagd_entry_set_commit_on_blur (TagdEntry          *self,
                                                   gboolean            commit_on_blur);
int                 tagd_entry_get_history        (TagdEntry          *self);
void                tagd_entry_set_history        (TagdEntry          *self,
                                                   int                 history);
const char         *tagd_entry_get_vault          (TagdEntry          *self);
void                tagd_entry_set_vault          (TagdEntry          *self,
                                                   const char         *vault);
const char         *tagd_entry_get_announcement   (TagdEntry          *self);

G_END_DECLS
