// libxml2's SAX2 push parser and the HTML entity table.
#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU, so encoding.h would pull in the system <unicode/ucnv.h>. Its
// UErrorCode then clashes with Foundation's bundled ICU (_FoundationICU) and the Swift build fails
// intermittently ("'UErrorCode' has different definitions in different modules"). We never touch
// the ICU converter fields (they only sit at the end of xmlCharEncodingHandler, used by pointer).
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/HTMLparser.h>
#include <libxml/entities.h>
#include <libxml/encoding.h>
#include <libxml/xmlerror.h>
#include <libxml/uri.h>
