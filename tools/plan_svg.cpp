#include "plan_svg.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>
#include <sstream>
#include <tuple>
#include <utility>
#include <vector>

namespace topocoll::tools {

namespace {

// Geometry of the picture, in pixels.
constexpr double kLeft = 170.0;     // rank labels and group names
constexpr double kTop = 64.0;       // title and legend
constexpr double kRight = 24.0;
constexpr double kStripRow = 14.0;  // one loaded link
constexpr std::size_t kMostLinkRows = 24;

// Colours of messages by the outermost level they cross (0: the outermost), then within a host.
constexpr const char* kLevelColours[] = {"#c0392b", "#2471a3", "#1e8449", "#b7950b", "#7d3c98"};
constexpr const char* kSameHostColour = "#7f8c8d";

std::string escaped(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

const char* colour_of_level(int level, int level_count) {
  if (level < 0 || level >= level_count) return kSameHostColour;
  return kLevelColours[static_cast<std::size_t>(level) % std::size(kLevelColours)];
}

// Rows in group order: ranks sorted by their groups, outermost level first (then rank).
std::vector<int> row_of_rank(const Topology& topology) {
  const int p = topology.size();
  std::vector<int> order(static_cast<std::size_t>(p));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    for (int l = 0; l < topology.level_count(); ++l) {
      if (topology.group(a, l) != topology.group(b, l)) return topology.group(a, l) < topology.group(b, l);
    }
    return false;
  });
  std::vector<int> row(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r) row[static_cast<std::size_t>(order[static_cast<std::size_t>(r)])] = r;
  return row;
}

struct Layout {
  double row_height = 0, round_width = 0, chart_height = 0, width = 0;
  double row_y(int row) const { return kTop + (row + 0.5) * row_height; }
  double round_x(double round) const { return kLeft + round * round_width; }
};

// `title_length`: characters of the title, which the picture is made wide enough for.
Layout layout_for(int ranks, std::size_t rounds, std::size_t title_length) {
  Layout g;
  g.row_height = std::clamp(900.0 / std::max(ranks, 1), 3.0, 26.0);
  g.round_width = std::clamp(1400.0 / static_cast<double>(std::max<std::size_t>(rounds, 1)), 24.0, 140.0);
  g.chart_height = g.row_height * ranks;
  const double chart_width = kLeft + g.round_width * static_cast<double>(std::max<std::size_t>(rounds, 1)) + kRight;
  g.width = std::max(chart_width, 12.0 + 8.0 * static_cast<double>(title_length));
  return g;
}

// The bands of the outermost level's groups and the rules between the next level's groups.
void write_groups(std::ostream& out, const Topology& topology, const std::vector<int>& row, const Layout& g) {
  const int p = topology.size();
  std::vector<int> by_row(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r) by_row[static_cast<std::size_t>(row[static_cast<std::size_t>(r)])] = r;
  out << "<g class=\"groups\">\n";
  int first = 0;
  for (int k = 1; k <= p; ++k) {
    const bool ends = k == p || topology.group(by_row[static_cast<std::size_t>(k)], 0) !=
                                    topology.group(by_row[static_cast<std::size_t>(first)], 0);
    if (!ends) continue;
    const int group = topology.group(by_row[static_cast<std::size_t>(first)], 0);
    const double y = kTop + first * g.row_height, h = (k - first) * g.row_height;
    out << "<rect class=\"group\" x=\"0\" y=\"" << number(y) << "\" width=\"" << number(g.width) << "\" height=\""
        << number(h) << "\" fill=\"" << (group % 2 == 0 ? "#f4f6f7" : "#eaf2f8") << "\"/>\n";
    out << "<text x=\"6\" y=\"" << number(y + std::min(h, 16.0) - 3) << "\" font-size=\"12\" font-weight=\"bold\">"
        << escaped(topology.levels().front()) << ' ' << group << "</text>\n";
    first = k;
  }
  if (topology.level_count() > 1) {
    for (int k = 1; k < p; ++k) {
      const int a = by_row[static_cast<std::size_t>(k - 1)], b = by_row[static_cast<std::size_t>(k)];
      if (topology.group(a, 1) == topology.group(b, 1)) continue;
      const double y = kTop + k * g.row_height;
      out << "<line x1=\"" << number(kLeft - 40) << "\" y1=\"" << number(y) << "\" x2=\"" << number(g.width)
          << "\" y2=\"" << number(y) << "\" stroke=\"#bdc3c7\" stroke-width=\"0.6\"/>\n";
    }
  }
  if (g.row_height >= 9) {  // rank numbers where they fit
    for (int r = 0; r < p; ++r) {
      out << "<text x=\"" << number(kLeft - 8) << "\" y=\"" << number(g.row_y(row[static_cast<std::size_t>(r)]) + 4)
          << "\" font-size=\"" << number(std::min(11.0, g.row_height - 1)) << "\" text-anchor=\"end\">" << r
          << "</text>\n";
    }
  }
  out << "</g>\n";
}

void write_round_rules(std::ostream& out, std::size_t rounds, const Layout& g) {
  out << "<g class=\"rounds\">\n";
  for (std::size_t t = 0; t <= rounds; ++t) {
    const double x = g.round_x(static_cast<double>(t));
    out << "<line x1=\"" << number(x) << "\" y1=\"" << number(kTop - 14) << "\" x2=\"" << number(x) << "\" y2=\""
        << number(kTop + g.chart_height) << "\" stroke=\"#d5d8dc\" stroke-width=\"0.5\"/>\n";
    if (t < rounds && g.round_width >= 24) {
      out << "<text x=\"" << number(x + g.round_width / 2) << "\" y=\"" << number(kTop - 4)
          << "\" font-size=\"10\" text-anchor=\"middle\">" << t << "</text>\n";
    }
  }
  out << "</g>\n";
}

void write_messages(std::ostream& out, const Schedule& schedule, const Topology& topology,
                    const std::vector<int>& row, const Layout& g) {
  std::size_t most_bytes = 1;
  for (const RankSchedule& rank : schedule.ranks) {
    for (const Round& round : rank.rounds) {
      for (const Transfer& send : round.sends) most_bytes = std::max(most_bytes, send.bytes());
    }
  }
  const double inset = std::min(6.0, g.round_width / 6);
  out << "<g class=\"messages\" fill=\"none\">\n";
  for (std::size_t from = 0; from < schedule.ranks.size(); ++from) {
    const auto& rounds = schedule.ranks[from].rounds;
    for (std::size_t t = 0; t < rounds.size(); ++t) {
      for (const Transfer& send : rounds[t].sends) {
        const int to = send.peer;
        const int level = topology.separating_level(static_cast<int>(from), to);
        const double weight = 0.4 + 3.6 * static_cast<double>(send.bytes()) / static_cast<double>(most_bytes);
        const double x1 = g.round_x(static_cast<double>(t)) + inset;
        const double x2 = g.round_x(static_cast<double>(t + 1 + send.overlap_rounds)) - inset;
        const char* colour = colour_of_level(level, topology.level_count());
        out << "<line class=\"message\" x1=\"" << number(x1) << "\" y1=\"" << number(g.row_y(row[from]))
            << "\" x2=\"" << number(x2) << "\" y2=\"" << number(g.row_y(row[static_cast<std::size_t>(to)]))
            << "\" stroke=\"" << colour << "\" stroke-width=\"" << number(weight)
            << "\" stroke-opacity=\"0.75\" marker-end=\"url(#head)\"><title>round " << t << ": rank " << from
            << " to rank " << to << ", " << send.bytes() << " bytes</title></line>\n";
      }
    }
  }
  out << "</g>\n";
}

// Every link that carries a flow in some round, with its flows per round: the most shared first
// (its worst round, then its flows over all rounds), at most kMostLinkRows.
struct LinkRow {
  std::string name;
  int peak = 0;
  long long total = 0;
  std::vector<int> flows;
};

std::vector<LinkRow> loaded_links(const LinkLoads& loads, std::size_t& left_out) {
  std::map<std::string, LinkRow> rows;
  for (std::size_t t = 0; t < loads.rounds.size(); ++t) {
    for (const LinkLoad& load : loads.rounds[t].busiest) {
      const std::string name = load.link + (load.direction.empty() ? "" : " " + load.direction);
      LinkRow& row = rows[name];
      row.name = name;
      row.flows.resize(loads.rounds.size());
      row.flows[t] = load.flows;
      row.peak = std::max(row.peak, load.flows);
      row.total += load.flows;
    }
  }
  std::vector<LinkRow> sorted;
  for (auto& [name, row] : rows) sorted.push_back(std::move(row));
  std::stable_sort(sorted.begin(), sorted.end(), [](const LinkRow& a, const LinkRow& b) {
    return std::tie(a.peak, a.total) > std::tie(b.peak, b.total);
  });
  left_out = sorted.size() > kMostLinkRows ? sorted.size() - kMostLinkRows : 0;
  if (left_out > 0) sorted.resize(kMostLinkRows);
  return sorted;
}

double write_link_strip(std::ostream& out, const LinkLoads& loads, const Layout& g, double top) {
  std::size_t left_out = 0;
  const std::vector<LinkRow> rows = loaded_links(loads, left_out);
  const int most = std::max(1, loads.max_flows_per_link);
  out << "<g class=\"links\">\n<text x=\"6\" y=\"" << number(top + 12) << "\" font-size=\"12\" font-weight=\"bold\">"
      << "flows per link and round: green one flow (the link to itself), red shared by several (darkest: "
      << most << ")</text>\n";
  double y = top + 20;
  for (const LinkRow& row : rows) {
    out << "<text x=\"" << number(kLeft - 8) << "\" y=\"" << number(y + kStripRow - 4)
        << "\" font-size=\"10\" text-anchor=\"end\">" << escaped(row.name) << "</text>\n";
    for (std::size_t t = 0; t < row.flows.size(); ++t) {
      if (row.flows[t] == 0) continue;
      // One flow has the link to itself; from two on, the flows share its bandwidth.
      const bool shared = row.flows[t] > 1;
      const double shade = shared ? 0.35 + 0.65 * static_cast<double>(row.flows[t]) / most : 0.45;
      out << "<rect class=\"link-load\" x=\"" << number(g.round_x(static_cast<double>(t))) << "\" y=\"" << number(y)
          << "\" width=\"" << number(g.round_width) << "\" height=\"" << number(kStripRow - 2) << "\" fill=\""
          << (shared ? "#c0392b" : "#27ae60") << "\" fill-opacity=\"" << number(shade) << "\"><title>" << escaped(row.name)
          << ", round " << t << ": " << row.flows[t] << " flows</title></rect>\n";
    }
    y += kStripRow;
  }
  if (left_out > 0) {
    out << "<text x=\"6\" y=\"" << number(y + 12) << "\" font-size=\"10\">and " << left_out
        << " more links, less loaded</text>\n";
    y += 16;
  }
  out << "</g>\n";
  return y;
}

void write_legend(std::ostream& out, const Topology& topology, const SvgCaption& caption) {
  out << "<text x=\"6\" y=\"18\" font-size=\"14\" font-weight=\"bold\">" << escaped(caption.title) << "</text>\n";
  double x = 6;
  const auto key = [&](const char* colour, const std::string& text) {
    out << "<line x1=\"" << number(x) << "\" y1=\"36\" x2=\"" << number(x + 22) << "\" y2=\"36\" stroke=\"" << colour
        << "\" stroke-width=\"3\"/><text x=\"" << number(x + 26) << "\" y=\"40\" font-size=\"11\">" << escaped(text)
        << "</text>\n";
    x += 34 + 6.5 * static_cast<double>(text.size());
  };
  for (int l = 0; l < topology.level_count(); ++l) {
    key(colour_of_level(l, topology.level_count()), "between " + topology.levels()[static_cast<std::size_t>(l)] + "s");
  }
  key(kSameHostColour, "within a " + topology.levels().back());
  out << "<text x=\"" << number(x) << "\" y=\"40\" font-size=\"11\">(width: bytes; rounds left to right)</text>\n";
}

}  // namespace

void write_schedule_svg(std::ostream& out, const Schedule& schedule, const Topology& topology,
                        const LinkLoads* loads, const SvgCaption& caption) {
  std::size_t rounds = 0;
  for (const RankSchedule& rank : schedule.ranks) {
    std::size_t spans = rank.rounds.size();
    for (std::size_t t = 0; t < rank.rounds.size(); ++t) {
      for (const Transfer& send : rank.rounds[t].sends) spans = std::max(spans, t + 1 + send.overlap_rounds);
    }
    rounds = std::max(rounds, spans);
  }
  const Layout g = layout_for(topology.size(), rounds, caption.title.size());
  const std::vector<int> row = row_of_rank(topology);
  std::ostringstream body;
  write_legend(body, topology, caption);
  write_groups(body, topology, row, g);
  write_round_rules(body, rounds, g);
  write_messages(body, schedule, topology, row, g);
  double height = kTop + g.chart_height + 12;
  if (loads != nullptr) height = write_link_strip(body, *loads, g, height) + 8;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" << number(g.width) << "\" height=\""
      << number(height) << "\" viewBox=\"0 0 " << number(g.width) << ' ' << number(height)
      << "\" font-family=\"sans-serif\">\n"
      << "<defs><marker id=\"head\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"5\" markerHeight=\"5\" "
         "orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#555\"/></marker></defs>\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << body.str() << "</svg>\n";
}

}  // namespace topocoll::tools
