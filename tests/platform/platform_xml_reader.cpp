// The test XML reader (see platform_xml_reader.hpp): a recursive-descent pass over the text.
#include "platform_xml_reader.hpp"

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

namespace topocoll::test {

std::string XmlElement::attribute(const std::string& key) const {
  const auto it = attributes.find(key);
  return it == attributes.end() ? std::string() : it->second;
}

std::vector<const XmlElement*> XmlElement::children_named(std::string_view child) const {
  std::vector<const XmlElement*> found;
  for (const auto& c : children) {
    if (c->name == child) found.push_back(c.get());
  }
  return found;
}

namespace {

class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  std::optional<XmlElement> document(std::string* error) {
    if (text_.substr(0, 5) == "<?xml") {
      const auto end = text_.find("?>");
      if (end == std::string_view::npos) return fail(error, "unterminated XML declaration");
      pos_ = end + 2;
    }
    if (!misc(error)) return std::nullopt;
    if (text_.substr(pos_, 9) == "<!DOCTYPE") {
      const auto end = text_.find('>', pos_);
      if (end == std::string_view::npos) return fail(error, "unterminated DOCTYPE");
      pos_ = end + 1;
      if (!misc(error)) return std::nullopt;
    }
    XmlElement root;
    if (!element(root, error)) return std::nullopt;
    if (!misc(error)) return std::nullopt;
    if (pos_ != text_.size()) return fail(error, "content after the root element");
    return root;
  }

 private:
  std::optional<XmlElement> fail(std::string* error, const std::string& what) {
    *error = what + " at byte " + std::to_string(pos_);
    return std::nullopt;
  }
  bool failed(std::string* error, const std::string& what) {
    fail(error, what);
    return false;
  }

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  bool comment(std::string* error) {
    const auto end = text_.find("-->", pos_ + 4);
    if (end == std::string_view::npos) return failed(error, "unterminated comment");
    if (text_.substr(pos_ + 4, end - pos_ - 4).find("--") != std::string_view::npos) {
      return failed(error, "'--' inside a comment");
    }
    pos_ = end + 3;
    return true;
  }

  // Whitespace and comments between top-level items.
  bool misc(std::string* error) {
    for (;;) {
      skip_space();
      if (text_.substr(pos_, 4) != "<!--") return true;
      if (!comment(error)) return false;
    }
  }

  bool name(std::string& out) {
    const std::size_t start = pos_;
    auto is_start = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':'; };
    if (pos_ >= text_.size() || !is_start(text_[pos_])) return false;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_' ||
                                   text_[pos_] == ':' || text_[pos_] == '.' || text_[pos_] == '-')) {
      ++pos_;
    }
    out = std::string(text_.substr(start, pos_ - start));
    return true;
  }

  bool attribute_value(std::string& out, std::string* error) {
    if (pos_ >= text_.size() || (text_[pos_] != '"' && text_[pos_] != '\'')) {
      return failed(error, "attribute value without quotes");
    }
    const char quote = text_[pos_++];
    out.clear();
    while (pos_ < text_.size() && text_[pos_] != quote) {
      const char c = text_[pos_];
      if (c == '<') return failed(error, "'<' in an attribute value");
      if (c == '&') {
        static const std::pair<std::string_view, char> entities[] = {
            {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
        bool known = false;
        for (const auto& [entity, replacement] : entities) {
          if (text_.substr(pos_, entity.size()) == entity) {
            out += replacement;
            pos_ += entity.size();
            known = true;
            break;
          }
        }
        if (!known) return failed(error, "unknown entity in an attribute value");
        continue;
      }
      out += c;
      ++pos_;
    }
    if (pos_ >= text_.size()) return failed(error, "unterminated attribute value");
    ++pos_;
    return true;
  }

  bool element(XmlElement& out, std::string* error) {
    if (pos_ >= text_.size() || text_[pos_] != '<') return failed(error, "expected an element");
    ++pos_;
    if (!name(out.name)) return failed(error, "expected an element name");
    for (;;) {
      skip_space();
      if (text_.substr(pos_, 2) == "/>") {
        pos_ += 2;
        return true;
      }
      if (pos_ < text_.size() && text_[pos_] == '>') {
        ++pos_;
        break;
      }
      std::string key, value;
      if (!name(key)) return failed(error, "expected an attribute name in <" + out.name + ">");
      skip_space();
      if (pos_ >= text_.size() || text_[pos_] != '=') return failed(error, "expected '=' after " + key);
      ++pos_;
      skip_space();
      if (!attribute_value(value, error)) return false;
      if (!out.attributes.emplace(key, value).second) return failed(error, "duplicate attribute " + key);
    }
    for (;;) {  // content: text, comments, child elements, then the end tag
      const auto next = text_.find('<', pos_);
      if (next == std::string_view::npos) return failed(error, "<" + out.name + "> is not closed");
      pos_ = next;
      if (text_.substr(pos_, 4) == "<!--") {
        if (!comment(error)) return false;
      } else if (text_.substr(pos_, 2) == "</") {
        pos_ += 2;
        std::string closing;
        if (!name(closing) || closing != out.name) {
          return failed(error, "</" + closing + "> closes <" + out.name + ">");
        }
        skip_space();
        if (pos_ >= text_.size() || text_[pos_] != '>') return failed(error, "malformed end tag");
        ++pos_;
        return true;
      } else {
        auto child = std::make_unique<XmlElement>();
        if (!element(*child, error)) return false;
        out.children.push_back(std::move(child));
      }
    }
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

std::optional<XmlElement> parse_xml(std::string_view text, std::string* error) {
  std::string scratch;
  return Reader(text).document(error ? error : &scratch);
}

std::string read_text_or_exit(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "cannot read " << path << '\n';
    std::exit(2);
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace topocoll::test
