// A small XML reader for tests: enough of XML 1.0 to check that a generated SimGrid platform
// is well-formed (declaration, DOCTYPE, comments, elements, quoted attributes, the five
// predefined entities) and to walk its elements. Not a validating parser.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topocoll::test {

struct XmlElement {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::vector<std::unique_ptr<XmlElement>> children;

  // The attribute's value, or "" when absent.
  std::string attribute(const std::string& key) const;
  std::vector<const XmlElement*> children_named(std::string_view child) const;
};

// The root element, or nullopt with `error` saying where the text is not well-formed.
std::optional<XmlElement> parse_xml(std::string_view text, std::string* error);

// The whole text of a generated file; says which file and exits with status 2 when it cannot be
// read (a check program's usage error).
std::string read_text_or_exit(const std::string& path);

}  // namespace topocoll::test
