// Calibration files: written and read back unchanged, errors that name the field at fault, the
// fit of a level's latency and bandwidth, and the conversion to the model's units.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "select/calibration.hpp"

namespace topocoll {
namespace {

Calibration sample() {
  Calibration c;
  c.platform = "two-clusters-30-30";
  c.topology = "clusters:30,30";
  c.ranks = 60;
  c.mpi_library = "SMPI";
  c.created_by = "topocoll-calibrate --topology clusters:30,30";
  c.levels = {{"cluster", 0, 30, 5060.0, 1.25e8, {{8, 5060.1}, {1 << 20, 13448.7}}}, {"node", 0, 1, 50.0, 1.25e8, {}}};
  c.send_overhead_us = 0.5;
  c.recv_overhead_us = 0.25;
  c.recv_overhead_until_bytes = 65536;
  c.node = {8, 1.25e8, 1.2e8};
  c.backbone = BackboneCalibration{"cluster", 0, 1, {{30, 1.25e9}, {900, 1.0e9}}, {1800, 2.0e9}, NearShare{30, 0.75}};
  c.group_capacities = {{"node", 0, 16, 240, 3.6e10}};
  c.group_links = {{"node", 0, 16, 16, 1.25e10}};
  c.message_envelope = EnvelopeCalibration{"node", 16, 256, 8, 6.25, 14.09, 16.0};
  // direct among 16 ranks of a node: 60 us a call, below the 61 us the model prices it at.
  c.busy_messages = BusyMessagesCalibration{"node", 16, 8, 60.0};
  c.eager_messages = EagerMessagesCalibration{{"node", 16, 2048, 300.0}, 4.7e9};
  c.rendezvous_messages = RendezvousMessagesCalibration{{"node", 16, 131072, 900.0}, 1.5};
  c.copy = {5e9, "given"};
  c.validation = {{"alltoall", 1024, "direct", 5120.5, 5301.25}, {"alltoall", 1024, "native", std::nullopt, 5200.0}};
  c.validation_noise = 0.005;
  return c;
}

TEST(CalibrationFile, RoundTrip) {
  const Calibration c = sample();
  std::string error;
  const auto back = parse_calibration(calibration_to_json(c), &error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(calibration_to_json(*back), calibration_to_json(c));
  EXPECT_EQ(back->levels[0].one_way.size(), 2u);
  EXPECT_EQ(back->backbone->one_direction[1].flows, 900);
  EXPECT_EQ(back->recv_overhead_us, std::optional<double>{0.25});
  {  // files from before the receive overhead was measured: not measured
    auto text = nlohmann::json::parse(calibration_to_json(c));
    text.erase("recv_overhead_us");
    text.erase("recv_overhead_until_bytes");
    text.erase("eager_messages");  // measured later still
    text.erase("rendezvous_messages");
    const auto without = parse_calibration(text.dump(), &error);
    ASSERT_TRUE(without) << error;
    EXPECT_FALSE(without->machine().recv_overhead_us);
    EXPECT_FALSE(without->machine().recv_overhead_until_bytes);
  }

  EXPECT_DOUBLE_EQ(back->backbone->near_share->share, 0.75);
  ASSERT_EQ(back->validation.size(), 2u);
  EXPECT_EQ(back->validation[0].algorithm, "direct");
  EXPECT_NEAR(*back->validation[0].error(), (5120.5 - 5301.25) / 5301.25, 1e-12);
  EXPECT_FALSE(back->validation[1].predicted_us);  // native: measured only
  EXPECT_EQ(back->validation_noise, std::optional<double>(0.005));
  EXPECT_FALSE(back->validation[1].error());

  EXPECT_EQ(back->machine().backbone->groups_links_bytes_per_us, 0.0);
  {  // a backbone no limit of its own is read back so; files from before it was judged: a limit
    Calibration wide = c;
    wide.backbone->groups_links_bytes_per_s = 2e11;
    const auto wide_back = parse_calibration(calibration_to_json(wide), &error);
    ASSERT_TRUE(wide_back) << error;
    EXPECT_DOUBLE_EQ(wide_back->machine().backbone->groups_links_bytes_per_us, 2e5);
    auto text = nlohmann::json::parse(calibration_to_json(wide));
    text["backbone"].erase("groups_links_bytes_per_s");
    const auto before = parse_calibration(text.dump(), &error);
    ASSERT_TRUE(before) << error;
    EXPECT_EQ(before->machine().backbone->groups_links_bytes_per_us, 0.0);
  }

  Calibration older = c;  // files from before the near share was measured
  older.backbone->near_share.reset();
  const auto older_back = parse_calibration(calibration_to_json(older), &error);
  ASSERT_TRUE(older_back) << error;
  EXPECT_FALSE(older_back->backbone->near_share);
  EXPECT_EQ(older_back->machine().backbone->near_weight, 0.0);

  ASSERT_EQ(back->group_capacities.size(), 1u);
  EXPECT_EQ(back->group_capacities[0].flows, 240);
  Calibration unlimited = c;  // no group limits (or a file from before they were measured)
  unlimited.group_capacities.clear();
  EXPECT_EQ(calibration_to_json(unlimited).find("group_capacities"), std::string::npos);
  const auto unlimited_back = parse_calibration(calibration_to_json(unlimited), &error);
  ASSERT_TRUE(unlimited_back) << error;
  EXPECT_TRUE(unlimited_back->machine().group_capacities.empty());
  ASSERT_EQ(back->group_links.size(), 1u);
  EXPECT_EQ(back->group_links[0].ranks, 16);
  EXPECT_DOUBLE_EQ(back->group_links[0].bytes_per_s, 1.25e10);
  Calibration no_links = c;  // one rank per host, or a file from before the links were measured
  no_links.group_links.clear();
  EXPECT_EQ(calibration_to_json(no_links).find("group_links"), std::string::npos);
  const auto no_links_back = parse_calibration(calibration_to_json(no_links), &error);
  ASSERT_TRUE(no_links_back) << error;
  EXPECT_TRUE(no_links_back->machine().group_links.empty());

  ASSERT_TRUE(back->busy_messages);
  EXPECT_EQ(back->busy_messages->ranks, 16);
  EXPECT_DOUBLE_EQ(back->busy_messages->exchange_us, 60.0);
  Calibration unbusy = c;  // not measured (one rank per node), or a file from before it was
  unbusy.busy_messages.reset();
  EXPECT_EQ(calibration_to_json(unbusy).find("busy_messages"), std::string::npos);
  const auto unbusy_back = parse_calibration(calibration_to_json(unbusy), &error);
  ASSERT_TRUE(unbusy_back) << error;
  EXPECT_FALSE(unbusy_back->busy_messages);

  Calibration flat = c;
  flat.backbone.reset();
  const auto flat_back = parse_calibration(calibration_to_json(flat), &error);
  ASSERT_TRUE(flat_back) << error;
  EXPECT_FALSE(flat_back->backbone);
}

TEST(CalibrationFile, MachineInModelUnits) {
  const MachineCost m = sample().machine();
  ASSERT_FALSE(check_machine(m));
  EXPECT_DOUBLE_EQ(m.levels[0].latency_us, 5060.0);
  EXPECT_DOUBLE_EQ(m.levels[0].bytes_per_us, 125.0);
  EXPECT_DOUBLE_EQ(m.ejection_bytes_per_us, 120.0);
  EXPECT_DOUBLE_EQ(m.send_overhead_us, 0.5);
  EXPECT_EQ(m.recv_overhead_us, std::optional<double>{0.25});
  EXPECT_EQ(m.recv_overhead_until_bytes, std::optional<std::size_t>{65536});
  EXPECT_DOUBLE_EQ(m.copy_bytes_per_us, 5000.0);
  // Both directions with 1800 flows = 900 each way: 2e9 against 1e9 one way.
  EXPECT_DOUBLE_EQ(m.backbone->duplex_ratio, 2.0);
  EXPECT_DOUBLE_EQ(m.backbone->capacity_bytes_per_us(30), 1250.0);
  // 0.75 of the link beside 30 flows across: weight w with w / (w + 30) = 0.75, w = 90.
  EXPECT_DOUBLE_EQ(m.backbone->near_weight, 90.0);
  ASSERT_EQ(m.group_capacities.size(), 1u);
  EXPECT_EQ(m.group_capacities[0].level, "node");
  EXPECT_DOUBLE_EQ(m.group_capacities[0].bytes_per_us, 36000.0);
  ASSERT_EQ(m.group_links.size(), 1u);
  EXPECT_EQ(m.group_links[0].level, "node");
  EXPECT_DOUBLE_EQ(m.group_links[0].bytes_per_us, 12500.0);
}

// A node whose ranks, all busy, pay more per message than a lone ping-pong showed: the latency
// among them and the overheads are scaled so that the model prices direct's small exchange among
// them at its measured time.
TEST(CalibrationFile, BusyMessagesScaleLatencyAndOverheads) {
  // Among 16 ranks of one node (the last level, latency 50 us), o_s 0.5, o_r 0.25: the model
  // prices direct at 50 + 15 x 0.5 + 14 x 0.25 = 61 us; the sample measured 60.
  Calibration c = sample();
  EXPECT_DOUBLE_EQ(c.busy_factor(), 1.0);
  c.busy_messages->exchange_us = 122.0;
  EXPECT_DOUBLE_EQ(c.busy_factor(), 2.0);
  const MachineCost busy = c.machine();
  EXPECT_DOUBLE_EQ(busy.send_overhead_us, 1.0);
  EXPECT_EQ(busy.recv_overhead_us, std::optional<double>{0.5});
  EXPECT_DOUBLE_EQ(busy.levels[1].latency_us, 100.0);
  EXPECT_DOUBLE_EQ(busy.levels[0].latency_us, 5060.0) << "the levels above the node keep theirs";
  c.busy_messages->exchange_us = 67.0;  // 9.8% over: within the probe's noise
  EXPECT_DOUBLE_EQ(c.busy_factor(), 1.0);
  // Receives above the eager limit pay no completion in the model: 50 + 7.5 = 57.5 us.
  c.busy_messages->exchange_us = 115.0;
  c.recv_overhead_until_bytes = 4;
  EXPECT_DOUBLE_EQ(c.busy_factor(), 2.0);
  c.recv_overhead_us.reset();  // not measured: the same
  EXPECT_DOUBLE_EQ(c.busy_factor(), 2.0);
  EXPECT_FALSE(c.machine().recv_overhead_us);
  c.busy_messages.reset();  // not measured
  EXPECT_DOUBLE_EQ(c.busy_factor(), 1.0);
  EXPECT_DOUBLE_EQ(c.machine().levels[1].latency_us, 50.0);
}

TEST(CalibrationFile, EagerMessagesGiveTheModelItsCopies) {
  Calibration c = sample();
  std::string error;
  const auto back = parse_calibration(calibration_to_json(c), &error);
  ASSERT_TRUE(back) << error;
  ASSERT_TRUE(back->eager_messages);
  EXPECT_EQ(back->eager_messages->exchange.bytes, 2048u);
  EXPECT_EQ(back->eager_messages->copy_bytes_per_s, std::optional<double>{4.7e9});
  EXPECT_EQ(c.machine().eager_copy_bytes_per_us, std::optional<double>{4700.0});
  c.eager_messages->copy_bytes_per_s.reset();  // the model stood: measured, nothing charged
  const auto stood = parse_calibration(calibration_to_json(c), &error);
  ASSERT_TRUE(stood) << error;
  ASSERT_TRUE(stood->eager_messages);
  EXPECT_FALSE(stood->eager_messages->copy_bytes_per_s);
  EXPECT_FALSE(stood->machine().eager_copy_bytes_per_us);
  c.eager_messages.reset();  // not measured (no eager limit given), or an older file
  EXPECT_EQ(calibration_to_json(c).find("eager_messages"), std::string::npos);
  EXPECT_FALSE(c.machine().eager_copy_bytes_per_us);
}

TEST(CalibrationFile, RendezvousMessagesGiveTheModelItsCost) {
  Calibration c = sample();
  std::string error;
  const auto back = parse_calibration(calibration_to_json(c), &error);
  ASSERT_TRUE(back) << error;
  ASSERT_TRUE(back->rendezvous_messages);
  EXPECT_EQ(back->rendezvous_messages->exchange.bytes, 131072u);
  EXPECT_DOUBLE_EQ(back->rendezvous_messages->exchange.exchange_us, 900.0);
  EXPECT_EQ(back->machine().rendezvous_us, std::optional<double>{1.5});
  c.rendezvous_messages->per_message_us.reset();  // the model stood
  const auto stood = parse_calibration(calibration_to_json(c), &error);
  ASSERT_TRUE(stood) << error;
  ASSERT_TRUE(stood->rendezvous_messages);
  EXPECT_FALSE(stood->machine().rendezvous_us);
  c.rendezvous_messages.reset();
  EXPECT_EQ(calibration_to_json(c).find("rendezvous_messages"), std::string::npos);
  EXPECT_FALSE(c.machine().rendezvous_us);
}

TEST(CalibrationFile, MessageEnvelopeGivesTheModelItsBytes) {
  Calibration c = sample();
  std::string error;
  const auto back = parse_calibration(calibration_to_json(c), &error);
  ASSERT_TRUE(back) << error;
  ASSERT_TRUE(back->message_envelope);
  EXPECT_EQ(back->message_envelope->messages, 256);
  EXPECT_DOUBLE_EQ(back->message_envelope->many_us, 14.09);
  EXPECT_DOUBLE_EQ(back->machine().envelope_bytes, 16.0);
  c.message_envelope->envelope_bytes.reset();  // the CPUs hid the link
  const auto hidden = parse_calibration(calibration_to_json(c), &error);
  ASSERT_TRUE(hidden && hidden->message_envelope) << error;
  EXPECT_DOUBLE_EQ(hidden->machine().envelope_bytes, 0.0);
  c.message_envelope.reset();  // files from before it was measured
  EXPECT_EQ(calibration_to_json(c).find("message_envelope"), std::string::npos);
  EXPECT_DOUBLE_EQ(c.machine().envelope_bytes, 0.0);
}

std::string error_after(const std::function<void(nlohmann::json&)>& change) {
  nlohmann::json doc = nlohmann::json::parse(calibration_to_json(sample()));
  change(doc);
  std::string error;
  EXPECT_FALSE(parse_calibration(doc.dump(), &error)) << "accepted: " << doc.dump();
  return error;
}

TEST(CalibrationFile, ErrorsNameTheField) {
  using nlohmann::json;
  EXPECT_EQ(error_after([](json& d) { d["levels"][1]["bandwidth_bytes_per_s"] = 0; }),
            "levels[1].bandwidth_bytes_per_s must be a positive number");
  EXPECT_EQ(error_after([](json& d) { d["levels"][0].erase("latency_us"); }), "levels[0].latency_us is missing");
  EXPECT_EQ(error_after([](json& d) { d["levels"][0]["latency_us"] = "fast"; }),
            "levels[0].latency_us must be a number, 0 or more");
  EXPECT_EQ(error_after([](json& d) { d["levels"][1]["name"] = "cluster"; }),
            "levels[1].name 'cluster' is listed twice");
  EXPECT_EQ(error_after([](json& d) { d["levels"] = json::array(); }), "levels must be a non-empty array");
  EXPECT_EQ(error_after([](json& d) { d["node"].erase("ejection_bytes_per_s"); }),
            "node.ejection_bytes_per_s is missing");
  EXPECT_EQ(error_after([](json& d) { d["backbone"]["level"] = "site"; }),
            "backbone.level 'site' is not the name of one of the levels");
  EXPECT_EQ(error_after([](json& d) { d["backbone"]["near_share"]["share"] = 1.0; }),
            "backbone.near_share.share must be below 1 (a share of the link)");
  EXPECT_EQ(error_after([](json& d) { d["backbone"]["near_share"]["far_flows"] = 0; }),
            "backbone.near_share.far_flows must be at least 1");
  EXPECT_EQ(error_after([](json& d) { d["backbone"]["groups_links_bytes_per_s"] = 0; }),
            "backbone.groups_links_bytes_per_s must be a positive number");
  EXPECT_EQ(error_after([](json& d) { d["backbone"]["near_share"] = 3; }),
            "backbone.near_share must be an object with \"far_flows\" and \"share\"");
  EXPECT_EQ(error_after([](json& d) { d["backbone"]["one_direction"][1]["flows"] = 30; }),
            "backbone.one_direction[1].flows must exceed the previous entry's (list by increasing flows)");
  EXPECT_EQ(error_after([](json& d) { d["backbone"].erase("both_directions"); }),
            "backbone.both_directions is missing");
  EXPECT_EQ(error_after([](json& d) { d["copy"]["bytes_per_s"] = -1; }), "copy.bytes_per_s must be a positive number");
  EXPECT_EQ(error_after([](json& d) { d["format"] = "topocoll-calibration 0"; }),
            "format is 'topocoll-calibration 0', expected 'topocoll-calibration 1'");
  EXPECT_EQ(error_after([](json& d) { d.erase("send_overhead_us"); }), "send_overhead_us is missing");
  EXPECT_EQ(error_after([](json& d) { d["recv_overhead_us"] = "1"; }), "recv_overhead_us must be a number, 0 or more");
  EXPECT_EQ(error_after([](json& d) { d["eager_messages"]["copy_bytes_per_s"] = 0; }),
            "eager_messages.copy_bytes_per_s must be a positive number");
  EXPECT_EQ(error_after([](json& d) { d["eager_messages"].erase("copy_bytes_per_s"); }),
            "eager_messages.copy_bytes_per_s is missing");
  EXPECT_EQ(error_after([](json& d) { d["eager_messages"]["ranks"] = 1; }),
            "eager_messages.ranks must be at least 2 (ranks that exchange)");
  EXPECT_EQ(error_after([](json& d) { d.erase("recv_overhead_until_bytes"); }),
            "eager_messages.copy_bytes_per_s needs recv_overhead_until_bytes (the eager limit it applies to)");
  EXPECT_EQ(error_after([](json& d) {
              d.erase("recv_overhead_until_bytes");
              d.erase("eager_messages");
            }),
            "rendezvous_messages.per_message_us needs recv_overhead_until_bytes (the eager limit it applies to)");
  EXPECT_EQ(error_after([](json& d) { d["rendezvous_messages"]["per_message_us"] = -1; }),
            "rendezvous_messages.per_message_us must be a number, 0 or more");
  EXPECT_EQ(error_after([](json& d) { d["rendezvous_messages"] = 3; }),
            "rendezvous_messages must be an object or null");
  EXPECT_EQ(error_after([](json& d) { d["message_envelope"]["messages"] = 1; }),
            "message_envelope.messages must be at least 2 (one message is the reference)");
  EXPECT_EQ(error_after([](json& d) { d["message_envelope"]["envelope_bytes"] = -1; }),
            "message_envelope.envelope_bytes must be a number, 0 or more");
  EXPECT_EQ(error_after([](json& d) { d["message_envelope"] = "16"; }), "message_envelope must be an object or null");
  EXPECT_EQ(error_after([](json& d) { d["recv_overhead_until_bytes"] = -1; }),
            "recv_overhead_until_bytes must be a whole number of bytes, 0 or more");
  EXPECT_EQ(error_after([](json& d) { d["validation"][0]["measured_us"] = 0; }),
            "validation[0].measured_us must be a positive number");
  EXPECT_EQ(error_after([](json& d) { d["validation"][1].erase("algorithm"); }), "validation[1].algorithm is missing");
  EXPECT_EQ(error_after([](json& d) { d["validation"] = 1; }), "validation must be an array");
  // Found by the calibration fuzzer: a size past every integer was cast to one (undefined).
  EXPECT_EQ(error_after([](json& d) { d["validation"][0]["bytes"] = 1e24; }),
            "validation[0].bytes must be a whole number of bytes, 0 or more");
  EXPECT_EQ(error_after([](json& d) { d["group_capacities"][0]["bytes_per_s"] = 0; }),
            "group_capacities[0].bytes_per_s must be a positive number");
  EXPECT_EQ(error_after([](json& d) { d["group_capacities"][0]["ranks"] = 1; }),
            "group_capacities[0].ranks must be at least 2 (a group with traffic inside)");
  EXPECT_EQ(error_after([](json& d) { d["group_capacities"].push_back(d["group_capacities"][0]); }),
            "group_capacities[1].level 'node' is listed twice");
  EXPECT_EQ(error_after([](json& d) { d["group_capacities"] = json::object(); }), "group_capacities must be an array");
  EXPECT_EQ(error_after([](json& d) { d["group_links"][0]["bytes_per_s"] = -1; }),
            "group_links[0].bytes_per_s must be a positive number");
  EXPECT_EQ(error_after([](json& d) { d["group_links"][0]["ranks"] = 1; }),
            "group_links[0].ranks must be at least 2 (a group whose ranks share its link)");
  EXPECT_EQ(error_after([](json& d) { d["group_links"].push_back(d["group_links"][0]); }),
            "group_links[1].level 'node' is listed twice");
  EXPECT_EQ(error_after([](json& d) { d["busy_messages"] = 3; }), "busy_messages must be an object or null");
  EXPECT_EQ(error_after([](json& d) { d["busy_messages"]["ranks"] = 1; }),
            "busy_messages.ranks must be at least 2 (ranks that exchange)");
  EXPECT_EQ(error_after([](json& d) { d["busy_messages"].erase("exchange_us"); }),
            "busy_messages.exchange_us is missing");
  EXPECT_EQ(error_after([](json& d) { d["busy_messages"]["exchange_us"] = 0; }),
            "busy_messages.exchange_us must be a positive number");
  std::string error;
  EXPECT_FALSE(parse_calibration("{\"format\": ", &error));
  EXPECT_EQ(error.rfind("not valid JSON", 0), 0u) << error;
  EXPECT_FALSE(load_calibration("/nonexistent/x.calibration.json", &error));
  EXPECT_EQ(error, "calibration file '/nonexistent/x.calibration.json' cannot be read");
}

// A number too large for a double is a parse error naming the problem, not an exception.
TEST(CalibrationFile, NumberOverflowIsAnError) {
  std::string text = calibration_to_json(sample());
  const std::string field = "\"ranks\": 60";
  ASSERT_NE(text.find(field), std::string::npos) << text;
  text.replace(text.find(field), field.size(), "\"ranks\": 1e999");
  std::string error;
  EXPECT_FALSE(parse_calibration(text, &error));
  EXPECT_NE(error.find("not valid JSON"), std::string::npos) << error;
}

TEST(CalibrationFile, FitRecoversALine) {
  // one way = o + latency + bytes / bandwidth with o = 12.5, latency 59.74, 12130081.3 bytes/s.
  const double o = 12.5, latency = 59.74, bytes_per_us = 12.1300813;
  std::vector<OneWaySample> samples;
  for (std::size_t bytes : {std::size_t{1 << 20}, std::size_t{8}, std::size_t{4 << 20}, std::size_t{1024}}) {
    samples.push_back({bytes, o + latency + static_cast<double>(bytes) / bytes_per_us});
  }
  const auto fit = fit_one_way(samples, o);
  ASSERT_TRUE(fit);
  EXPECT_NEAR(fit->latency_us, latency, 1e-6);
  EXPECT_NEAR(fit->bandwidth_bytes_per_s, bytes_per_us * 1e6, 1e-3);
  EXPECT_FALSE(fit_one_way({{8, 10.0}}, 0.0));
  EXPECT_FALSE(fit_one_way({{8, 10.0}, {16, 9.0}}, 0.0));  // time falling with size: no bandwidth
}

// A calibration file is parsed once per process while it stays as it was: every communicator
// shares it; a file rewritten since is read again.
TEST(CalibrationFile, ParsedOncePerProcessWhileTheFileStaysTheSame) {
  const std::string path = ::testing::TempDir() + "/once.calibration.json";
  Calibration c = sample();
  c.platform = "first";
  { std::ofstream(path) << calibration_to_json(c); }
  std::string error;
  const auto first = load_calibration_once(path, &error);
  ASSERT_TRUE(first) << error;
  EXPECT_EQ(load_calibration_once(path, &error), first) << "the same file: the same parse";
  c.platform = "second, longer";
  { std::ofstream(path) << calibration_to_json(c); }
  const auto second = load_calibration_once(path, &error);
  ASSERT_TRUE(second) << error;
  EXPECT_NE(second, first);
  EXPECT_EQ(second->platform, "second, longer");
  EXPECT_EQ(first->platform, "first") << "a parse already handed out stays as it was";
  std::remove(path.c_str());
  EXPECT_FALSE(load_calibration_once(path, &error));
  EXPECT_NE(error.find("cannot be read"), std::string::npos) << error;
}

}  // namespace
}  // namespace topocoll
