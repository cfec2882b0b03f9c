/* tagd-style.h: the widgets' default look, loaded once per display.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

void _tagd_style_ensure (void);
