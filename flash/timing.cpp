#include "flash/timing.h"

namespace ssdlab::flash {

const char* read_transfer_name(ReadTransfer transfer) {
  return transfer == ReadTransfer::kCodeword ? "codeword" : "page";
}

bool parse_read_transfer(std::string_view name, ReadTransfer& out) {
  for (const ReadTransfer transfer : {ReadTransfer::kPage, ReadTransfer::kCodeword})
    if (name == read_transfer_name(transfer)) {
      out = transfer;
      return true;
    }
  return false;
}

}  // namespace ssdlab::flash
