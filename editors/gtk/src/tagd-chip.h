/* tagd-chip.h: one tag of a TagdEntry, its label and its remove button. Private.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TAGD_TYPE_CHIP (tagd_chip_get_type ())
G_DECLARE_FINAL_TYPE (TagdChip, tagd_chip, TAGD, CHIP, GtkWidget)

struct _TagdChip {
  GtkWidget        parent_instance;
  char            *tag;
  GtkWidget       *label;
  GtkWidget       *button;     /* "Remove <tag>": what has the focus while the chip is selected */
  GtkWidget       *editor;     /* a GtkEntry in place of the label while the tag is edited, or NULL */
  gboolean         has_frame;
  graphene_rect_t  frame;
  guint            flash_source;
  gboolean         removing;   /* field/removeTag sent: hidden until tagd answers */
  gboolean         flagged;    /* the tag breaks a rule set after it was added (tagd's `flagged`) */
};

TagdChip *_tagd_chip_new      (const char *tag);
void      _tagd_chip_flash    (TagdChip   *chip);
GtkWidget *_tagd_chip_begin_edit (TagdChip *chip);
void      _tagd_chip_set_flagged (TagdChip *chip, gboolean flagged, const char *why);
char      *_tagd_chip_end_edit   (TagdChip *chip);
void      _tagd_chip_set_selected (TagdChip *chip,
                                   gboolean  selected);

G_END_DECLS
