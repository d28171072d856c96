#pragma once
// Small owning wrappers for the buffers and images the renderer and the targets allocate. One
// allocation per resource: Weft has a handful of them, so a sub-allocator would buy nothing.
#include <cstddef>

#include <vulkan/vulkan.h>

namespace weft {

class VulkanContext;

// A host-visible, host-coherent buffer, persistently mapped: the CPU writes it, the GPU reads it.
struct HostBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  void* mapped = nullptr;
  VkDeviceSize size = 0;
};
HostBuffer create_host_buffer(const VulkanContext& ctx, VkDeviceSize size, VkBufferUsageFlags usage);
void destroy(const VulkanContext& ctx, HostBuffer& buffer);

// A device-local 2D image with one view.
struct GpuImage {
  VkImage image = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkExtent2D extent{0, 0};
};
GpuImage create_image(const VulkanContext& ctx, VkExtent2D extent, VkFormat format, VkImageUsageFlags usage,
                      VkImageAspectFlags aspect);
void destroy(const VulkanContext& ctx, GpuImage& image);

// A full-image layout transition (synchronization2); stage/access masks as given.
void image_barrier(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect, VkImageLayout from,
                   VkImageLayout to, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                   VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access);

// Makes a transfer's writes into a host-visible buffer visible to the host (read-back after a copy).
void host_read_barrier(VkCommandBuffer cmd, VkBuffer buffer);

}  // namespace weft
