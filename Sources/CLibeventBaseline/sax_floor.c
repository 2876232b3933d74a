// The floor for case 7: libxml2's SAX2 parser with callbacks that do (almost) nothing, set up the
// way PodcastFeeds' XMLReader sets it up.
#include "CLibeventBaseline.h"
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>

static void floor_start(void *context, const xmlChar *localname, const xmlChar *prefix,
                        const xmlChar *uri, int namespace_count, const xmlChar **namespaces,
                        int attribute_count, int defaulted, const xmlChar **attributes) {
    (void)localname; (void)prefix; (void)uri; (void)namespace_count; (void)namespaces;
    (void)attribute_count; (void)defaulted; (void)attributes;
    *(long *)context += 1;
}

static void floor_end(void *context, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri) {
    (void)context; (void)localname; (void)prefix; (void)uri;
}

static void floor_characters(void *context, const xmlChar *bytes, int length) {
    (void)context; (void)bytes; (void)length;
}

static void floor_error(void *context, xmlErrorPtr error) {
    (void)context; (void)error;
}

long clb_sax_floor(const char *bytes, int length) {
    static int initialized = 0;
    if (!initialized) {
        xmlInitParser();
        initialized = 1;
    }
    xmlParserCtxtPtr context = xmlCreateMemoryParserCtxt(bytes, length);
    if (!context) return -1;
    xmlSAXHandler sax = {0};
    sax.initialized = XML_SAX2_MAGIC;
    sax.startElementNs = floor_start;
    sax.endElementNs = floor_end;
    sax.characters = floor_characters;
    sax.cdataBlock = floor_characters;
    sax.ignorableWhitespace = floor_characters;
    sax.serror = floor_error;
    *context->sax = sax;
    long elements = 0;
    context->userData = &elements;
    xmlCtxtUseOptions(context, XML_PARSE_RECOVER | XML_PARSE_NONET | XML_PARSE_IGNORE_ENC);
    xmlParseDocument(context);
    xmlFreeParserCtxt(context);
    return elements;
}
