/* tagd-cloud-private.h: what the parts of TagdCloud share. Private. The parts:
 *   tagd-cloud.c            the type, properties, the API, the tag buttons, the session, keys
 *   tagd-cloud-layout.c     cloud/layout, the frames and shapes, measure and allocation
 *   tagd-cloud-animation.c  the spacing animation on the frame clock
 *   tagd-cloud-glass.c      the glass: each merge group drawn as one shape
 *   tagd-cloud-vault.c      a vault's tags as the cloud's, and the notes of its selection
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "tagd-cloud.h"
#include "tagd-session.h"

G_BEGIN_DECLS

#define ANIMATION_USEC (700 * 1000)
/* The seed's tints: a selected tag's shape in its tint at 0.85, an unselected one at 0.3. */
#define SELECTED_OPACITY 0.85
#define UNSELECTED_OPACITY 0.3

struct _TagdCloud {
  GtkWidget        parent_instance;

  GPtrArray       *buttons;          /* GtkButton* (check-box role), in tag order */
  char           **titles;
  char           **tints;            /* same length as titles; "" for no tint */
  char           **selection;
  double           spacing;
  double           merge_distance;
  int              current;          /* the tag Tab comes back to, or -1 */

  TagdSession     *session;          /* the cloud in tagd */
  gint64           state_version;

  /* layout */
  double           layout_width;
  guint            layout_serial;
  guint            layout_applied;
  GArray          *frames;           /* graphene_rect_t per tag of the applied layout */
  int             *group_of;         /* group index per tag of the applied layout */
  guint            n_groups;
  double           layout_height;

  /* animation */
  guint            tick_id;
  gint64           anim_start;
  double           anim_from;
  gboolean         anim_done;        /* the final frame was requested */
  gboolean         in_flight;

  /* the vault (tagd-cloud-vault.c) */
  char            *vault;            /* a folder of notes, or NULL */
  char           **notes;            /* the URIs of the notes carrying the selection */
  char           **note_titles;      /* their titles */
  guint            tags_serial;      /* the last vault/tags asked */
  guint            notes_serial;     /* the last vault/notes asked */
  guint            vault_generation; /* the connection's generation when last asked */
};

enum {
  PROP_0,
  PROP_TITLES,
  PROP_SELECTION,
  PROP_SPACING,
  PROP_MERGE_DISTANCE,
  PROP_ANIMATING,
  PROP_VAULT,
  PROP_NOTES,
  PROP_NOTE_TITLES,
  N_PROPS
};
G_GNUC_INTERNAL extern GParamSpec *_tagd_cloud_properties[N_PROPS];

/* A tag's button: a GtkButton with the check-box role, its CHECKED state and :checked kept
 * in step (tagd-cloud.c). */
G_GNUC_INTERNAL gboolean        _tagd_cloud_tag_get_active (GtkWidget *button);

/* tagd-cloud-layout.c */
G_GNUC_INTERNAL void            _tagd_cloud_request_layout (TagdCloud *self, gboolean transition, double progress);
G_GNUC_INTERNAL double          _tagd_cloud_margin (TagdCloud *self);
G_GNUC_INTERNAL graphene_rect_t _tagd_cloud_frame_at (TagdCloud *self, guint i);
G_GNUC_INTERNAL graphene_rect_t _tagd_cloud_shape_at (TagdCloud *self, guint i);
G_GNUC_INTERNAL void            _tagd_cloud_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                                                     int *minimum, int *natural, int *minimum_baseline,
                                                     int *natural_baseline);
G_GNUC_INTERNAL void            _tagd_cloud_size_allocate (GtkWidget *widget, int width, int height, int baseline);

/* tagd-cloud-animation.c */
G_GNUC_INTERNAL void            _tagd_cloud_animate_spacing (TagdCloud *self, double from);
G_GNUC_INTERNAL void            _tagd_cloud_stop_animation (TagdCloud *self);

/* tagd-cloud-vault.c */
G_GNUC_INTERNAL void            _tagd_cloud_vault_selection_changed (TagdCloud *self);
G_GNUC_INTERNAL void            _tagd_cloud_vault_dispose (TagdCloud *self);

/* tagd-cloud-glass.c */
G_GNUC_INTERNAL void            _tagd_cloud_snapshot (GtkWidget *widget, GtkSnapshot *snapshot);

G_END_DECLS
