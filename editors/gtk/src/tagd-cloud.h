/* tagd-cloud.h: a selectable tag cloud driven by tagd.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TAGD_TYPE_CLOUD (tagd_cloud_get_type ())
G_DECLARE_FINAL_TYPE (TagdCloud, tagd_cloud, TAGD, CLOUD, GtkWidget)

GtkWidget          *tagd_cloud_new                (void);
void                tagd_cloud_set_tags           (TagdCloud          *self,
                                                   const char * const *titles,
                                                   const char * const *tints);
const char * const *tagd_cloud_get_titles         (TagdCloud          *self);
const char * const *tagd_cloud_get_selection      (TagdCloud          *self);
void                tagd_cloud_set_selection      (TagdCloud          *self,
                                                   const char * const *selection);
double              tagd_cloud_get_spacing        (TagdCloud          *self);
void                tagd_cloud_set_spacing        (TagdCloud          *self,
                                                   double              spacing);
double              tagd_cloud_get_merge_distance (TagdCloud          *self);
void                tagd_cloud_set_merge_distance (TagdCloud          *self,
                                                   double              merge_distance);
gboolean            tagd_cloud_get_animating      (TagdCloud          *self);
int                *tagd_cloud_get_groups         (TagdCloud          *self,
                                                   guint              *n_tags);
const char         *tagd_cloud_get_vault          (TagdCloud          *self);
void                tagd_cloud_set_vault          (TagdCloud          *self,
                                                   const char         *vault);
const char * const *tagd_cloud_get_notes          (TagdCloud          *self);
const char * const *tagd_cloud_get_note_titles    (TagdCloud          *self);
void                tagd_cloud_reload             (TagdCloud          *self);

G_END_DECLS
