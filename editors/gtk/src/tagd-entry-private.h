/* tagd-entry-private.h: what the parts of TagdEntry share. Private. The parts:
 *   tagd-entry.c          the type, properties, signals, construction, the API on tags
 *   tagd-entry-options.c  the field options (field/open, then field/setOptions)
 *   tagd-entry-chips.c    chips from tagd's tags, the selected chip, chip requests
 *   tagd-entry-keys.c     keys, focus, clicks on the entry
 *   tagd-entry-announce.c announcements, refusals, tag-dropped
 *   tagd-entry-session.c  what its field session (tagd-session.c) carries: requests with
 *                         their text, field/open, the sync path
 *   tagd-entry-layout.c   field/layout and size allocation
 *   tagd-entry-suggest.c  the suggestion popover
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "tagd-chip.h"
#include "tagd-entry.h"
#include "tagd-private.h"
#include "tagd-session.h"

G_BEGIN_DECLS

#define CHIP_SPACING 6.0
#define SUGGESTION_LIMIT 8

/* What a request is, for the reply and for replay after a restart. */
enum {
  OP_LOCAL    = TAGD_REQUEST_LOCAL, /* not replayed after a restart (selection, blur) */
  OP_REMOVE   = 1 << 2,   /* field/removeTag of a chip hidden meanwhile */
  OP_SELECT   = 1 << 3,   /* field/select: the entry's own selection wins until answered */
};

/* A request's data (TagdRequest.data): the text when the user acted, for the replay. */
typedef struct {
  TagdChip  *chip;        /* OP_REMOVE: the chip being removed */
  char      *text;        /* the buffer when the user acted */
  gint64     version;     /* its version */
  guint      announced;   /* the entry's announcements count when it was made */
} Op;

enum {
  PROP_0,
  PROP_TAGS,
  PROP_PROMPT,
  PROP_SEPARATORS,
  PROP_MAX_TAGS,
  PROP_MAX_TAG_LENGTH,
  PROP_CASE_SENSITIVE,
  PROP_TRANSFORM,
  PROP_PATTERN,
  PROP_ALLOW,
  PROP_DENY,
  PROP_SUGGESTIONS,
  PROP_BACKSPACE_MODE,
  PROP_COMMIT_ON_BLUR,
  PROP_HISTORY,
  PROP_VAULT,
  PROP_SELECTED,
  PROP_ANNOUNCEMENT,
  N_PROPS
};
G_GNUC_INTERNAL extern GParamSpec *_tagd_entry_properties[N_PROPS];

enum { SIGNAL_TAGS_CHANGED, SIGNAL_TAG_DROPPED, SIGNAL_ACTIVATE, N_SIGNALS };
G_GNUC_INTERNAL extern guint _tagd_entry_signals[N_SIGNALS];

struct _TagdEntry {
  GtkWidget        parent_instance;

  GtkWidget       *text_box;        /* GtkEntry: the accessible text, and what layout places */
  GtkWidget       *text;            /* its GtkText, which has the keyboard focus */
  GtkEntryBuffer  *buffer;
  GtkWidget       *message;         /* the last refusal, shown below the entry */
  GtkWidget       *popover;         /* suggestions */
  GtkWidget       *list;
  GPtrArray       *chips;           /* TagdChip*, in tag order; children of the entry */
  char           **tags;

  /* options (field/open) */
  char            *prompt;
  char           **separators;      /* NULL: tagd's default set */
  int              max_tags;        /* -1: no limit of the widget's own */
  int              max_tag_length;  /* -1: no limit of the widget's own */
  gboolean         case_sensitive;
  TagdTransform    transform;
  char            *pattern;
  char           **allow;
  char           **deny;
  char           **suggestions;
  TagdBackspaceMode backspace_mode;
  gboolean         commit_on_blur;
  int              history;         /* -1: tagd's default */
  char            *vault;           /* a folder of notes whose tags are suggested, or NULL */

  char            *announcement;
  guint            announcements;   /* how many were given: a reply tells whether one came since */
  char            *flag_sentence;   /* tagd's sentence when tags were last flagged */
  guint            clear_description;
  GtkWidget       *described;       /* what holds the sentence until it is cleared */
  int              selected;        /* index of the selected chip, or -1 */
  TagdChip        *editing;         /* the chip edited in place, or NULL */
  guint            select_pending;  /* field/select requests not answered yet */

  TagdSession     *session;         /* the field in tagd */
  gint64           version;         /* the buffer's version, as reported to tagd */
  gint64           state_version;   /* the newest FieldState version applied */
  GString         *mirror;          /* the buffer as last reported (UTF-8) */
  char            *open_text;       /* the text a session being opened starts from, or NULL */
  gint64           open_version;    /* its version */
  gboolean         applying;        /* applying tagd's edits: not user changes */
  guint            rebuilds;        /* how often the chip list changed */

  /* suggestions */
  guint            suggest_source;
  guint            suggest_serial;
  GPtrArray       *items;           /* char*: the texts shown in the popover */

  /* layout */
  double           layout_width;    /* the width of the last field/layout request, or -1 */
  guint            layout_serial;   /* serial of the last request sent */
  guint            layout_applied;  /* serial of the last reply applied */
  gboolean         has_text_frame;
  graphene_rect_t  text_frame;
  double           layout_height;   /* size.height of the last layout applied, or -1 */
};

G_GNUC_INTERNAL void               _tagd_entry_select_chip (TagdEntry *self, int index, gboolean tell_tagd);
G_GNUC_INTERNAL int                _tagd_entry_nearest_chip (TagdEntry *self, int from, int step);
G_GNUC_INTERNAL void               _tagd_entry_remove_chip (TagdEntry *self, TagdChip *chip);
G_GNUC_INTERNAL void               _tagd_entry_edit_chip (TagdEntry *self, int index);
G_GNUC_INTERNAL void               _tagd_entry_finish_edit (TagdEntry *self, gboolean commit, gboolean refocus);
G_GNUC_INTERNAL gboolean           _tagd_entry_focus_is_in_editor (TagdEntry *self);
G_GNUC_INTERNAL void               _tagd_entry_move_chip (TagdEntry *self, int step);
G_GNUC_INTERNAL gboolean           _tagd_entry_focus_is_in_chips (TagdEntry *self);
G_GNUC_INTERNAL void               _tagd_entry_set_tags_internal (TagdEntry *self, char **tags);
G_GNUC_INTERNAL void               _tagd_entry_keys_init (TagdEntry *self);
G_GNUC_INTERNAL gboolean           _tagd_entry_grab_focus (GtkWidget *widget);
G_GNUC_INTERNAL gboolean           _tagd_entry_focus (GtkWidget *widget, GtkDirectionType direction);
G_GNUC_INTERNAL void               _tagd_entry_apply_outcome (TagdEntry *self, GVariant *state);
G_GNUC_INTERNAL void               _tagd_entry_apply_state (TagdEntry *self, GVariant *state, const char *version_key, gboolean announce);
G_GNUC_INTERNAL void               _tagd_entry_clear_refusal (TagdEntry *self);
G_GNUC_INTERNAL void               _tagd_entry_speak (TagdEntry *self, const char *sentence);
G_GNUC_INTERNAL GVariant          *_tagd_entry_options (TagdEntry *self);
G_GNUC_INTERNAL GVariant          *_tagd_entry_strv_variant (char **v);
G_GNUC_INTERNAL void               _tagd_entry_focus_text (TagdEntry *self, int position);
G_GNUC_INTERNAL void               _tagd_entry_send_selection (TagdEntry *self);
G_GNUC_INTERNAL void               _tagd_entry_request_layout (TagdEntry *self);
G_GNUC_INTERNAL GtkSizeRequestMode _tagd_entry_get_request_mode (GtkWidget *widget);
G_GNUC_INTERNAL void               _tagd_entry_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum, int *natural, int *minimum_baseline, int *natural_baseline);
G_GNUC_INTERNAL void               _tagd_entry_size_allocate (GtkWidget *widget, int width, int height, int baseline);
G_GNUC_INTERNAL void               _tagd_entry_on_deleted_text (GtkEntryBuffer *buffer, guint position, guint n_chars, TagdEntry *self);
G_GNUC_INTERNAL void               _tagd_entry_on_inserted_text (GtkEntryBuffer *buffer, guint position, const char *chars, guint n_chars, TagdEntry *self);
G_GNUC_INTERNAL void               _tagd_entry_request (TagdEntry *self, const char *method, GVariant *extra, guint flags, TagdChip *chip);
G_GNUC_INTERNAL void               _tagd_entry_hide_suggestions (TagdEntry *self);
G_GNUC_INTERNAL int                _tagd_entry_highlighted_row (TagdEntry *self);
G_GNUC_INTERNAL void               _tagd_entry_move_highlight (TagdEntry *self, int step);
G_GNUC_INTERNAL void               _tagd_entry_on_row_activated (GtkListBox *list, GtkListBoxRow *row, TagdEntry *self);
G_GNUC_INTERNAL void               _tagd_entry_schedule_suggest (TagdEntry *self);
G_GNUC_INTERNAL void               _tagd_entry_take_suggestion (TagdEntry *self, guint index);

/* The entry's field session, its handlers connected (tagd-entry-session.c). */
G_GNUC_INTERNAL TagdSession       *_tagd_entry_session_new (TagdEntry *self);

G_END_DECLS
