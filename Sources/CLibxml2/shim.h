// libxml2's SAX2 push parser and the HTML entity table.
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/HTMLparser.h>
#include <libxml/entities.h>
#include <libxml/encoding.h>
#include <libxml/xmlerror.h>
#include <libxml/uri.h>
