// SPDX-License-Identifier: MIT
#pragma once

#include <QtCore/qglobal.h>

#if defined(TAGDQT_LIBRARY)
#define TAGDQT_EXPORT Q_DECL_EXPORT
#else
#define TAGDQT_EXPORT Q_DECL_IMPORT
#endif
