#include "engine/renderer.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include <glm/gtc/matrix_transform.hpp>

#include "engine/shader_library.h"
#include "gpu/vk_check.h"
#include "engine/vulkan_context.h"

namespace weft {
namespace {

// Mirrors `Frame` in shaders/frame.glsl.
struct FrameConstants {
  glm::mat4 view_proj;
  glm::vec4 eye;         // xyz eye, w time
  glm::vec4 options;     // x strain view, y floor height, z table top height
  glm::vec4 table_rect;  // min x, min z, max x, max z
};
static_assert(sizeof(FrameConstants) <= 128, "push constants must fit the guaranteed 128 bytes");

// Mirrors the per-instance inputs of shaders/solid.vert.
struct SolidInstance {
  glm::mat4 model;
  glm::vec4 color;  // rgb albedo, a emissive boost
  glm::vec4 shape{0.f};  // x: 0 unit cube, 1 unit sphere or capsule; y: a capsule's half length / radius
};

// A slot's topology when it holds the constructor's mesh (snapshots that carry none).
constexpr uint64_t kLoadedMesh = ~uint64_t(0) - 1;

VkDeviceSize align16(VkDeviceSize v) { return (v + 15) & ~VkDeviceSize(15); }

VkShaderModule make_module(VkDevice device, const char* name) {
  const SpirvCode code = shader_spirv(name);
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = code.size_bytes;
  info.pCode = code.words;
  VkShaderModule module;
  WEFT_VK_CHECK(vkCreateShaderModule(device, &info, nullptr, &module));
  return module;
}

glm::mat4 pose_transform(const glm::vec3& position, const glm::quat& orientation) {
  return glm::translate(glm::mat4(1.f), position) * glm::mat4_cast(orientation);
}

glm::mat4 box_transform(glm::vec3 center, glm::vec3 size) {
  return glm::scale(glm::translate(glm::mat4(1.f), center), size);
}

}  // namespace

bool Renderer::depth_attachment_supported(VkPhysicalDevice device, VkFormat format) {
  VkFormatProperties fp;
  vkGetPhysicalDeviceFormatProperties(device, format, &fp);
  return (fp.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT) != 0;
}

Renderer::Renderer(VulkanContext& ctx, VkFormat color_format, const SnapshotMesh& mesh, const SceneProps& props,
                   uint32_t frames_in_flight, VkFormat depth_format)
    : ctx_(ctx), color_format_(color_format), depth_format_(depth_format), props_(props) {
  if (frames_in_flight == 0) throw std::invalid_argument("weft: the renderer needs at least one frame in flight");
  vertex_count_ = mesh.material.size();
  mesh_.triangles = mesh.triangles;
  mesh_.material = mesh.material;
  VkDevice dev = ctx.device();

  if (depth_format_ == VK_FORMAT_UNDEFINED)
    for (VkFormat f : kDepthFormats)
      if (depth_attachment_supported(ctx.physical_device(), f)) {
        depth_format_ = f;
        break;
      }
  if (depth_format_ == VK_FORMAT_UNDEFINED || !depth_attachment_supported(ctx.physical_device(), depth_format_))
    throw std::runtime_error("weft: no usable depth format");

  // Table: a top slab and four legs, as unit-cube transforms.
  if (props.table) {
    const TableProp& t = *props.table;
    const float top = props.floor_height + t.top_height;
    prop_boxes_.push_back(box_transform({t.center_xz.x, top - t.thickness * 0.5f, t.center_xz.y},
                                        {t.size_xz.x, t.thickness, t.size_xz.y}));
    const float leg = 0.05f, leg_h = t.top_height - t.thickness;
    for (int sx : {-1, 1})
      for (int sz : {-1, 1})
        prop_boxes_.push_back(box_transform(
            {t.center_xz.x + sx * (t.size_xz.x * 0.5f - leg), props.floor_height + leg_h * 0.5f,
             t.center_xz.y + sz * (t.size_xz.y * 0.5f - leg)},
            {leg, leg_h, leg}));
  }

  // Streamed data per frame in flight, sized for the mesh's capacities (cuts add vertices).
  slots_.resize(frames_in_flight);
  create_slots(std::max(mesh.vertex_capacity, mesh.material.size()),
               std::max(mesh.triangle_capacity, mesh.triangles.size()));

  VkPushConstantRange range{VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(FrameConstants)};
  VkPipelineLayoutCreateInfo layout{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout.pushConstantRangeCount = 1;
  layout.pPushConstantRanges = &range;
  WEFT_VK_CHECK(vkCreatePipelineLayout(dev, &layout, nullptr, &layout_));

  // Cloth: position, normal, strain, grasped flags streamed; material coordinates static.
  const VkVertexInputBindingDescription cloth_bindings[] = {
      {0, sizeof(glm::vec3), VK_VERTEX_INPUT_RATE_VERTEX}, {1, sizeof(glm::vec3), VK_VERTEX_INPUT_RATE_VERTEX},
      {2, sizeof(float), VK_VERTEX_INPUT_RATE_VERTEX},     {3, sizeof(uint8_t), VK_VERTEX_INPUT_RATE_VERTEX},
      {4, sizeof(glm::vec2), VK_VERTEX_INPUT_RATE_VERTEX}};
  const VkVertexInputAttributeDescription cloth_attrs[] = {
      {0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0}, {1, 1, VK_FORMAT_R32G32B32_SFLOAT, 0}, {2, 2, VK_FORMAT_R32_SFLOAT, 0},
      {3, 3, VK_FORMAT_R8_UINT, 0},          {4, 4, VK_FORMAT_R32G32_SFLOAT, 0}};
  VkPipelineVertexInputStateCreateInfo cloth_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  cloth_input.vertexBindingDescriptionCount = 5;
  cloth_input.pVertexBindingDescriptions = cloth_bindings;
  cloth_input.vertexAttributeDescriptionCount = 5;
  cloth_input.pVertexAttributeDescriptions = cloth_attrs;
  cloth_ = make_pipeline("cloth.vert", "cloth.frag", cloth_input, true, false);

  VkPipelineVertexInputStateCreateInfo shadow_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  shadow_input.vertexBindingDescriptionCount = 1;
  shadow_input.pVertexBindingDescriptions = cloth_bindings;
  shadow_input.vertexAttributeDescriptionCount = 1;
  shadow_input.pVertexAttributeDescriptions = cloth_attrs;
  shadow_ = make_pipeline("shadow.vert", "shadow.frag", shadow_input, false, true);

  VkPipelineVertexInputStateCreateInfo no_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  floor_ = make_pipeline("floor.vert", "floor.frag", no_input, true, false);

  const VkVertexInputBindingDescription solid_binding{0, sizeof(SolidInstance), VK_VERTEX_INPUT_RATE_INSTANCE};
  VkVertexInputAttributeDescription solid_attrs[6];
  for (uint32_t i = 0; i < 6; ++i) solid_attrs[i] = {i, 0, VK_FORMAT_R32G32B32A32_SFLOAT, i * 16};
  VkPipelineVertexInputStateCreateInfo solid_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  solid_input.vertexBindingDescriptionCount = 1;
  solid_input.pVertexBindingDescriptions = &solid_binding;
  solid_input.vertexAttributeDescriptionCount = 6;
  solid_input.pVertexAttributeDescriptions = solid_attrs;
  solid_ = make_pipeline("solid.vert", "solid.frag", solid_input, true, false);
}

Renderer::~Renderer() {
  VkDevice dev = ctx_.device();
  vkDeviceWaitIdle(dev);
  for (VkPipeline p : {cloth_, shadow_, floor_, solid_})
    if (p) vkDestroyPipeline(dev, p, nullptr);
  if (layout_) vkDestroyPipelineLayout(dev, layout_, nullptr);
  destroy_slots();
  destroy(ctx_, depth_);
}

void Renderer::create_slots(size_t vertex_capacity, size_t triangle_capacity) {
  vertex_capacity_ = vertex_capacity;
  triangle_capacity_ = triangle_capacity;
  const VkDeviceSize n = vertex_capacity;
  off_normal_ = align16(n * sizeof(glm::vec3));
  off_strain_ = off_normal_ + align16(n * sizeof(glm::vec3));
  off_grasped_ = off_strain_ + align16(n * sizeof(float));
  off_instances_ = off_grasped_ + align16(n);
  off_indices_ = off_instances_ + kMaxInstances * sizeof(SolidInstance);
  off_material_ = off_indices_ + align16(VkDeviceSize(triangle_capacity) * 3 * sizeof(uint32_t));
  const VkDeviceSize slot_bytes = off_material_ + n * sizeof(glm::vec2) + 16;
  for (Slot& s : slots_) {
    s.vertices = create_host_buffer(ctx_, slot_bytes, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
    s.topology = ~uint64_t(0);
    s.index_count = 0;
  }
}

void Renderer::destroy_slots() {
  for (Slot& s : slots_) destroy(ctx_, s.vertices);
}

VkPipeline Renderer::make_pipeline(const char* vert, const char* frag,
                                   const VkPipelineVertexInputStateCreateInfo& input, bool depth_write,
                                   bool min_blend) {
  VkDevice dev = ctx_.device();
  VkShaderModule vs = make_module(dev, vert);
  VkShaderModule fs = make_module(dev, frag);
  VkPipelineShaderStageCreateInfo stages[2] = {{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO},
                                               {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO}};
  stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
  stages[0].module = vs;
  stages[0].pName = "main";
  stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stages[1].module = fs;
  stages[1].pName = "main";

  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  vp.viewportCount = 1;
  vp.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  rs.polygonMode = VK_POLYGON_MODE_FILL;
  rs.cullMode = VK_CULL_MODE_NONE;  // cloth is two-sided; the rest is cheap
  rs.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  rs.lineWidth = 1.f;
  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  ds.depthTestEnable = VK_TRUE;
  ds.depthWriteEnable = depth_write ? VK_TRUE : VK_FALSE;
  ds.depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
  VkPipelineColorBlendAttachmentState blend{};
  blend.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT |
                         VK_COLOR_COMPONENT_A_BIT;
  if (min_blend) {  // contact shadow: min(src, dst), so overlaps never darken twice
    blend.blendEnable = VK_TRUE;
    blend.srcColorBlendFactor = blend.dstColorBlendFactor = VK_BLEND_FACTOR_ONE;
    blend.srcAlphaBlendFactor = blend.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
    blend.colorBlendOp = blend.alphaBlendOp = VK_BLEND_OP_MIN;
  }
  VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  cb.attachmentCount = 1;
  cb.pAttachments = &blend;
  const VkDynamicState dyn_states[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  VkPipelineDynamicStateCreateInfo dyn{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  dyn.dynamicStateCount = 2;
  dyn.pDynamicStates = dyn_states;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  rendering.colorAttachmentCount = 1;
  rendering.pColorAttachmentFormats = &color_format_;
  rendering.depthAttachmentFormat = depth_format_;

  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  info.pNext = &rendering;
  info.stageCount = 2;
  info.pStages = stages;
  info.pVertexInputState = &input;
  info.pInputAssemblyState = &ia;
  info.pViewportState = &vp;
  info.pRasterizationState = &rs;
  info.pMultisampleState = &ms;
  info.pDepthStencilState = &ds;
  info.pColorBlendState = &cb;
  info.pDynamicState = &dyn;
  info.layout = layout_;
  VkPipeline pipeline = VK_NULL_HANDLE;
  const VkResult r = vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
  vkDestroyShaderModule(dev, vs, nullptr);
  vkDestroyShaderModule(dev, fs, nullptr);
  WEFT_VK_CHECK(r);
  return pipeline;
}

void Renderer::ensure_depth(VkExtent2D extent) {
  if (depth_.image && depth_.extent.width == extent.width && depth_.extent.height == extent.height) return;
  if (depth_.image) {
    vkDeviceWaitIdle(ctx_.device());  // rare: a resize; older frames may still use the old buffer
    destroy(ctx_, depth_);
  }
  depth_ = create_image(ctx_, extent, depth_format_, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                        VK_IMAGE_ASPECT_DEPTH_BIT);
}

void Renderer::upload(uint32_t slot, const ClothSnapshot& snap) {
  const bool own = snap.topology.generation != 0 || !snap.topology.triangles.empty();
  const SnapshotTopology& topo = own ? snap.topology : mesh_;
  const size_t n = snap.position.size();
  if (snap.normal.size() != n || snap.strain.size() != n || snap.grasped.size() != n || topo.material.size() != n)
    throw std::invalid_argument("weft: snapshot has " + std::to_string(n) + " vertices, its normals, strain, grasp "
                                "flags and material coordinates " + std::to_string(snap.normal.size()) + ", " +
                                std::to_string(snap.strain.size()) + ", " + std::to_string(snap.grasped.size()) +
                                ", " + std::to_string(topo.material.size()));
  if (n > vertex_capacity_ || topo.triangles.size() > triangle_capacity_) {
    // Outgrown (edits beyond the headroom the sim reserved): wait for the GPU once and double.
    vkDeviceWaitIdle(ctx_.device());
    destroy_slots();
    create_slots(std::max(n, 2 * vertex_capacity_), std::max(topo.triangles.size(), 2 * triangle_capacity_));
    ++growths_;
  }
  vertex_count_ = n;
  Slot& s = slots_.at(slot);
  char* base = static_cast<char*>(s.vertices.mapped);
  const uint64_t generation = own ? topo.generation : kLoadedMesh;
  if (s.topology != generation) {
    for (const auto& t : topo.triangles)
      if (t[0] >= n || t[1] >= n || t[2] >= n)
        throw std::invalid_argument("weft: snapshot triangle names vertex " +
                                    std::to_string(std::max({t[0], t[1], t[2]})) + " of " + std::to_string(n));
    std::memcpy(base + off_indices_, topo.triangles.data(), topo.triangles.size() * sizeof(topo.triangles[0]));
    std::memcpy(base + off_material_, topo.material.data(), n * sizeof(glm::vec2));
    s.index_count = uint32_t(topo.triangles.size() * 3);
    s.topology = generation;
  }
  std::memcpy(base, snap.position.data(), n * sizeof(glm::vec3));
  std::memcpy(base + off_normal_, snap.normal.data(), n * sizeof(glm::vec3));
  std::memcpy(base + off_strain_, snap.strain.data(), n * sizeof(float));
  std::memcpy(base + off_grasped_, snap.grasped.data(), n);

  auto* inst = reinterpret_cast<SolidInstance*>(base + off_instances_);
  uint32_t count = 0;
  for (const glm::mat4& m : prop_boxes_) inst[count++] = {m, glm::vec4(0.42f, 0.30f, 0.20f, 0.f)};
  const glm::vec3 hand_color[2] = {{0.1f, 0.8f, 1.0f}, {1.0f, 0.55f, 0.05f}};
  for (int h = 0; h < 2; ++h) {
    const DeviceGizmo& g = snap.hands[h];
    if (!g.active) continue;
    const glm::mat4 pose = pose_transform(g.position, g.orientation);
    const float s_grab = g.grabbing ? 0.7f : 1.f;  // a closed hand is smaller
    inst[count++] = {glm::scale(pose, glm::vec3(0.06f, 0.025f, 0.08f) * s_grab),
                     glm::vec4(hand_color[h], g.grabbing ? 0.6f : 0.1f)};
  }
  for (const DeviceGizmo& g : snap.trackers) {
    if (!g.active || count >= kMaxInstances) continue;
    const glm::mat4 pose = pose_transform(g.position, g.orientation);
    inst[count++] = {glm::scale(pose, glm::vec3(0.04f)), glm::vec4(0.85f, 0.2f, 0.9f, g.grabbing ? 0.5f : 0.1f)};
  }
  // Colliders slate blue, rigid boxes ochre: boxes with the cubes, then the round ones.
  auto solid_color = [](const SolidGizmo& g) {
    return g.rigid ? glm::vec4(0.80f, 0.55f, 0.20f, 0.f) : glm::vec4(0.20f, 0.30f, 0.55f, 0.f);
  };
  for (uint32_t k = 0; k < snap.solid_count && count < kMaxInstances; ++k) {
    const SolidGizmo& g = snap.solids[k];
    if (g.shape != SolidShape::Box) continue;
    const glm::mat4 pose = pose_transform(g.position, g.orientation);
    inst[count++] = {glm::scale(pose, 2.f * g.size), solid_color(g)};
  }
  s.instance_count = count;
  for (uint32_t k = 0; k < snap.solid_count && count < kMaxInstances; ++k) {
    const SolidGizmo& g = snap.solids[k];
    if (g.shape == SolidShape::Box) continue;
    const float radius = std::max(g.size.x, 1e-4f);
    const glm::mat4 pose = pose_transform(g.position, g.orientation);
    const float half_length = g.shape == SolidShape::Capsule ? g.size.y / radius : 0.f;
    inst[count++] = {glm::scale(pose, glm::vec3(radius)), solid_color(g), glm::vec4(1.f, half_length, 0.f, 0.f)};
  }
  s.round_count = count - s.instance_count;
}

void Renderer::record(VkCommandBuffer cmd, uint32_t slot, const TargetImage& target, const RenderView& view,
                      const RenderSettings& settings) {
  const bool own_depth = target.depth_view == VK_NULL_HANDLE;
  if (own_depth) ensure_depth(target.extent);
  const Slot& s = slots_.at(slot);
  const VkImageLayout depth_layout =
      own_depth ? VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;

  image_barrier(cmd, target.image, VK_IMAGE_ASPECT_COLOR_BIT, target.initial_layout,
                VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_2_TRANSFER_BIT, 0,
                VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
  const VkPipelineStageFlags2 depth_stages =
      VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT;
  image_barrier(cmd, own_depth ? depth_.image : target.depth_image, VK_IMAGE_ASPECT_DEPTH_BIT,
                VK_IMAGE_LAYOUT_UNDEFINED, depth_layout, depth_stages, VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                depth_stages,
                VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT);

  VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  color.imageView = target.view;
  color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  color.clearValue.color = {{settings.clear_color.x, settings.clear_color.y, settings.clear_color.z, 1.f}};
  VkRenderingAttachmentInfo depth{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  depth.imageView = own_depth ? depth_.view : target.depth_view;
  depth.imageLayout = depth_layout;
  depth.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  depth.storeOp = own_depth ? VK_ATTACHMENT_STORE_OP_DONT_CARE : VK_ATTACHMENT_STORE_OP_STORE;
  depth.clearValue.depthStencil = {1.f, 0};
  VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
  rendering.renderArea = {{0, 0}, target.extent};
  rendering.layerCount = 1;
  rendering.colorAttachmentCount = 1;
  rendering.pColorAttachments = &color;
  rendering.pDepthAttachment = &depth;
  vkCmdBeginRendering(cmd, &rendering);

  const VkViewport viewport{0.f, 0.f, float(target.extent.width), float(target.extent.height), 0.f, 1.f};
  const VkRect2D scissor{{0, 0}, target.extent};
  vkCmdSetViewport(cmd, 0, 1, &viewport);
  vkCmdSetScissor(cmd, 0, 1, &scissor);

  FrameConstants fc;
  fc.view_proj = view.projection * view.view;
  fc.eye = glm::vec4(view.eye, settings.time);
  fc.options = glm::vec4(settings.strain_view ? 1.f : 0.f, props_.floor_height, -1e6f, 0.f);
  fc.table_rect = glm::vec4(1.f, 1.f, -1.f, -1.f);  // empty: no table
  if (props_.table) {
    const TableProp& t = *props_.table;
    fc.options.z = props_.floor_height + t.top_height;
    fc.table_rect = glm::vec4(t.center_xz - 0.5f * t.size_xz, t.center_xz + 0.5f * t.size_xz);
  }
  vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(fc), &fc);

  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, floor_);
  vkCmdDraw(cmd, 6, 1, 0, 0);

  if (s.instance_count + s.round_count > 0) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, solid_);
    vkCmdBindVertexBuffers(cmd, 0, 1, &s.vertices.buffer, &off_instances_);
    if (s.instance_count > 0) vkCmdDraw(cmd, 36, s.instance_count, 0, 0);
    if (s.round_count > 0) vkCmdDraw(cmd, kRoundVertices, s.round_count, 0, s.instance_count);
  }

  if (s.index_count > 0) {
    const VkBuffer buffers[5] = {s.vertices.buffer, s.vertices.buffer, s.vertices.buffer, s.vertices.buffer,
                                 s.vertices.buffer};
    const VkDeviceSize offsets[5] = {0, off_normal_, off_strain_, off_grasped_, off_material_};
    vkCmdBindIndexBuffer(cmd, s.vertices.buffer, off_indices_, VK_INDEX_TYPE_UINT32);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, shadow_);
    vkCmdBindVertexBuffers(cmd, 0, 1, buffers, offsets);
    vkCmdDrawIndexed(cmd, s.index_count, 1, 0, 0, 0);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, cloth_);
    vkCmdBindVertexBuffers(cmd, 0, 5, buffers, offsets);
    vkCmdDrawIndexed(cmd, s.index_count, 1, 0, 0, 0);
  }
  vkCmdEndRendering(cmd);

  if (target.final_layout == VK_IMAGE_LAYOUT_PRESENT_SRC_KHR) {
    image_barrier(cmd, target.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                  target.final_layout, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                  VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_NONE, 0);
  } else if (target.final_layout == VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL) {
    image_barrier(cmd, target.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                  target.final_layout, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                  VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                  VK_ACCESS_2_TRANSFER_READ_BIT);
  } else if (target.final_layout != VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL) {
    image_barrier(cmd, target.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                  target.final_layout, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                  VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                  VK_ACCESS_2_MEMORY_READ_BIT);
  }
}

}  // namespace weft
